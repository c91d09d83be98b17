// Mastra's stored messages (format 2) ↔ canonical messages (AD-6). A Mastra
// assistant message holds a whole turn: its steps, each with text and tool
// invocations whose results sit inside them. As Mastra sends it, each step is
// an assistant message with its calls, then one tool message per result.
import type { Message, ToolCall } from "@/lib/context";

/** A part of a Mastra message, as far as the converter reads it. */
export interface MastraPart {
  type: string;
  text?: string;
  toolInvocation?: { state: string; toolCallId: string; toolName: string; args?: unknown; result?: unknown };
}

/** A Mastra message (`MastraMessageV2`), as far as the converter reads and writes it. */
export interface MastraMessage {
  id: string;
  role: "user" | "assistant" | "system";
  createdAt: Date;
  threadId?: string;
  resourceId?: string;
  type?: string;
  content: { format: 2; parts: MastraPart[]; content?: string };
}

/** A canonical message's source: one of the `of` canonical messages read from `message`. */
interface Origin {
  message: MastraMessage;
  of: number;
}

export interface ReadMastraMessages {
  history: Message[];
  origins: Map<Message, Origin>;
}

function textOf(message: MastraMessage): string {
  const texts = message.content.parts.filter((part) => part.type === "text").map((part) => part.text ?? "");
  return texts.length > 0 ? texts.join("") : (message.content.content ?? "");
}

function resultText(result: unknown): string {
  return typeof result === "string" ? result : (JSON.stringify(result) ?? "");
}

/** An assistant message's steps as canonical messages: text and calls, then the results. */
function readAssistant(message: MastraMessage): Message[] {
  const out: Message[] = [];
  let step: Message = { role: "assistant", content: null };
  let results: Message[] = [];
  const flush = () => {
    if (step.content !== null || step.tool_calls) out.push(step, ...results);
    step = { role: "assistant", content: null };
    results = [];
  };
  for (const part of message.content.parts) {
    if (part.type === "step-start") flush();
    else if (part.type === "text") {
      if (step.tool_calls) flush();
      step.content = `${step.content ?? ""}${part.text ?? ""}`;
    } else if (part.type === "tool-invocation" && part.toolInvocation) {
      const { toolCallId, toolName, args, state, result } = part.toolInvocation;
      const call: ToolCall = { id: toolCallId, type: "function", function: { name: toolName, arguments: JSON.stringify(args ?? {}) } };
      step.tool_calls = [...(step.tool_calls ?? []), call];
      if (state === "result") results.push({ role: "tool", tool_call_id: toolCallId, content: resultText(result) });
    }
  }
  flush();
  return out;
}

/** Canonical messages of Mastra messages, each remembering the message it was read from. */
export function readMastraMessages(messages: readonly MastraMessage[]): ReadMastraMessages {
  const history: Message[] = [];
  const origins = new Map<Message, Origin>();
  for (const message of messages) {
    const read: Message[] = message.role === "assistant" ? readAssistant(message) : [{ role: message.role, content: textOf(message) }];
    for (const canonical of read) {
      history.push(canonical);
      origins.set(canonical, { message, of: read.length });
    }
  }
  return { history, origins };
}

// Mastra orders a call's messages by their time: a message written anew takes the time of the one it replaces, or of the one before it.
function newMessage(role: MastraMessage["role"], parts: MastraPart[], createdAt: Date, template?: MastraMessage): MastraMessage {
  const text = parts.filter((part) => part.type === "text").map((part) => part.text ?? "");
  return {
    id: globalThis.crypto.randomUUID(),
    role,
    createdAt: template?.createdAt ?? createdAt,
    ...(template?.threadId ? { threadId: template.threadId } : {}),
    ...(template?.resourceId ? { resourceId: template.resourceId } : {}),
    content: { format: 2, parts, ...(text.length > 0 ? { content: text.join("") } : {}) },
  };
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One assistant step (its message and the results after it) as a Mastra assistant message. */
function writeStep(step: Message, results: readonly Message[], createdAt: Date, template?: MastraMessage): MastraMessage {
  const parts: MastraPart[] = [{ type: "step-start" }];
  if (step.content) parts.push({ type: "text", text: step.content });
  for (const call of step.tool_calls ?? []) {
    const result = results.find((message) => message.tool_call_id === call.id);
    parts.push({
      type: "tool-invocation",
      toolInvocation: {
        state: result ? "result" : "call",
        toolCallId: call.id,
        toolName: call.function.name,
        args: parsedArguments(call.function.arguments),
        ...(result ? { result: result.content ?? "" } : {}),
      },
    });
  }
  return newMessage("assistant", parts, createdAt, template);
}

/**
 * Mastra messages of a built request: a message all of whose canonical
 * messages were kept unchanged is the original; the others are written anew,
 * one assistant message per step with its results inside.
 */
export function writeMastraMessages(messages: readonly Message[], origins: ReadonlyMap<Message, Origin>): MastraMessage[] {
  const out: MastraMessage[] = [];
  const before = () => out.at(-1)?.createdAt ?? origins.get(messages[0])?.message.createdAt ?? new Date(0);
  let index = 0;
  while (index < messages.length) {
    const origin = origins.get(messages[index]);
    if (origin && messages.slice(index, index + origin.of).every((message) => origins.get(message)?.message === origin.message)) {
      out.push(origin.message);
      index += origin.of;
      continue;
    }
    const message = messages[index];
    if (message.role === "assistant") {
      let end = index + 1;
      while (end < messages.length && messages[end].role === "tool") end += 1;
      out.push(writeStep(message, messages.slice(index + 1, end), before(), origin?.message));
      index = end;
      continue;
    }
    // A tool result apart from its call cannot be: the builder keeps pairs whole (E-B2).
    if (message.role !== "tool") out.push(newMessage(message.role, [{ type: "text", text: message.content ?? "" }], before(), origin?.message));
    index += 1;
  }
  return out;
}
