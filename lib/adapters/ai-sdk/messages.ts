// AI SDK messages ↔ canonical messages (AD-3): `ModelMessage` (what prepareStep
// sees) and the provider prompt (what a middleware sees) share their parts, so
// one reader and one writer serve both. A message the policy leaves alone is
// given back as the very object the SDK made; only what the policy changed or
// added is written anew.
import type { ContentPart, Message, ToolCall } from "@/lib/context";
import { buildMessage } from "@/lib/formats/canonical";
import { mediaPartOf, sdkMediaPart, type SdkMediaPart } from "./media";

/** A part of an AI SDK message, as far as the converter reads it. */
export interface SdkPart {
  type: string;
  text?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: SdkToolOutput;
  providerOptions?: unknown;
}

export type SdkToolOutput =
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json" | "content"; value: unknown }
  | { type: "execution-denied"; reason?: string };

/** An AI SDK message (`ModelMessage`, or a provider prompt's message, whose user content is always parts). */
export interface SdkMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string | readonly SdkPart[];
  providerOptions?: unknown;
}

/** Where a canonical message came from: a whole message, or one tool result of a tool message. */
type Origin = { message: SdkMessage; part?: SdkPart; parts?: number };

/** A history read from AI SDK messages, with the origin of each canonical message. */
export interface ReadSdkMessages {
  history: Message[];
  origins: Map<Message, Origin>;
}

/** How the writer spells user content: prompt messages always hold parts, model messages may hold a string. */
export type SdkForm = "prompt" | "model";

// The text a tool result is sent as: what @ai-sdk/openai writes for each output type.
function outputText(output: SdkToolOutput | undefined): string {
  if (!output) return "";
  if (output.type === "text" || output.type === "error-text") return output.value;
  if (output.type === "execution-denied") return output.reason ?? "Tool call execution denied.";
  return JSON.stringify(output.value) ?? "";
}

function partsOf(content: SdkMessage["content"]): readonly SdkPart[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function textOf(parts: readonly SdkPart[]): string {
  return parts
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}

function arguments_(input: unknown): string {
  return typeof input === "string" ? input : (JSON.stringify(input ?? {}) ?? "{}");
}

function readUser(message: SdkMessage): Message {
  const parts = partsOf(message.content).map(
    (part): ContentPart => (part.type === "text" ? { type: "text", text: part.text ?? "" } : mediaPartOf(part as SdkMediaPart)),
  );
  return buildMessage("user", parts);
}

function readAssistant(message: SdkMessage): Message {
  const parts = partsOf(message.content);
  const text = textOf(parts);
  const calls: ToolCall[] = parts
    .filter((part) => part.type === "tool-call" && typeof part.toolCallId === "string")
    .map((part) => ({ id: part.toolCallId as string, type: "function", function: { name: part.toolName ?? "", arguments: arguments_(part.input) } }));
  const reasoning = parts.filter((part) => part.type === "reasoning").map((part): ContentPart => ({ type: "reasoning", text: part.text ?? "" }));
  const out: Message = { role: "assistant", content: text === "" && calls.length > 0 ? null : text };
  if (calls.length > 0) out.tool_calls = calls;
  if (reasoning.length > 0) out.parts = [...reasoning, ...(text === "" ? [] : [{ type: "text" as const, text }])];
  return out;
}

/** Canonical messages of AI SDK messages: a tool message's results become one tool message each, in order. */
export function readSdkMessages(messages: readonly SdkMessage[]): ReadSdkMessages {
  const history: Message[] = [];
  const origins = new Map<Message, Origin>();
  const add = (message: Message, origin: Origin) => {
    history.push(message);
    origins.set(message, origin);
  };
  for (const message of messages) {
    if (message.role === "system")
      add({ role: "system", content: typeof message.content === "string" ? message.content : textOf(message.content) }, { message });
    else if (message.role === "user") add(readUser(message), { message });
    else if (message.role === "assistant") add(readAssistant(message), { message });
    else {
      const results = partsOf(message.content).filter((part) => part.type === "tool-result");
      for (const part of results)
        add({ role: "tool", tool_call_id: part.toolCallId ?? "", content: outputText(part.output) }, { message, part, parts: results.length });
    }
  }
  return { history, origins };
}

function writeUser(message: Message, form: SdkForm): SdkMessage {
  if (!message.parts) return { role: "user", content: form === "model" ? (message.content ?? "") : [{ type: "text", text: message.content ?? "" }] };
  const parts = message.parts.flatMap((part): SdkPart[] => {
    if (part.type === "text") return [{ type: "text", text: part.text }];
    const media = sdkMediaPart(part, form);
    return media ? [media] : [];
  });
  return { role: "user", content: parts };
}

function writeAssistant(message: Message): SdkMessage {
  const parts: SdkPart[] = (message.parts ?? []).filter((part) => part.type === "reasoning").map((part) => ({ type: "reasoning", text: part.text }));
  if (message.content) parts.push({ type: "text", text: message.content });
  for (const call of message.tool_calls ?? [])
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parsedArguments(call.function.arguments) });
  return { role: "assistant", content: parts };
}

function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The tool names of the calls in `messages`, by call id: a rewritten result names its tool. */
function toolNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  return names;
}

/**
 * AI SDK messages of a built request: each message the policy kept as it was
 * is its original; consecutive tool messages are one tool message, the
 * original one when all of its results were kept unchanged.
 */
export function writeSdkMessages(messages: readonly Message[], origins: ReadonlyMap<Message, Origin>, form: SdkForm): SdkMessage[] {
  const names = toolNames(messages);
  const out: SdkMessage[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index];
    if (message.role === "tool") {
      const run: Message[] = [];
      while (index < messages.length && messages[index].role === "tool") run.push(messages[index++]);
      index -= 1;
      out.push(writeToolRun(run, origins, names));
      continue;
    }
    const origin = origins.get(message);
    if (origin) out.push(origin.message);
    else if (message.role === "system") out.push({ role: "system", content: message.content ?? "" });
    else if (message.role === "user") out.push(writeUser(message, form));
    else out.push(writeAssistant(message));
  }
  return out;
}

function writeToolRun(run: readonly Message[], origins: ReadonlyMap<Message, Origin>, names: ReadonlyMap<string, string>): SdkMessage {
  const first = origins.get(run[0]);
  if (first?.part && first.parts === run.length && run.every((message) => origins.get(message)?.message === first.message)) return first.message;
  const content = run.map((message): SdkPart => {
    const part = origins.get(message)?.part;
    if (part) return part;
    const id = message.tool_call_id ?? "";
    return { type: "tool-result", toolCallId: id, toolName: names.get(id) ?? "", output: { type: "text", value: message.content ?? "" } };
  });
  return { role: "tool", content };
}
