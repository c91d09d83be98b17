// OpenAI Agents SDK input items ↔ canonical messages (AD-5). The SDK's items are
// Responses items in camelCase (`callId`, `function_call_result`); an
// assistant's turn is its message, reasoning and function call items, which
// are one canonical assistant message. Items the policy keeps as they were go
// back as the very items the SDK made.
import type { ContentPart, Message, ToolCall } from "@/lib/context";
import { buildMessage } from "@/lib/formats/canonical";

/** An input item, as far as the converter reads it. */
export interface AgentItem {
  type?: string;
  role?: string;
  content?: unknown;
  callId?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
  status?: string;
}

/** What a canonical message was read from: the instructions, or its items. */
export type ItemOrigin = { instructions: true } | { items: readonly AgentItem[] };

export interface ReadItems {
  history: Message[];
  origins: Map<Message, ItemOrigin>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The text of a content list's text parts (`input_text`, `output_text`, `text`). */
function partsOf(content: unknown): ContentPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((part): ContentPart[] => {
    if (typeof part.text === "string") return [{ type: "text", text: part.text }];
    if (part.type === "refusal" && typeof part.refusal === "string") return [{ type: "refusal", text: part.refusal }];
    if (part.type === "input_image" && typeof part.image === "string") return [{ type: "image", source: { type: "url", url: part.image } }];
    return [];
  });
}

// What the SDK's Responses model sends as a function call's output: a string, a text output's text, else the items' text.
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (isRecord(output) && output.type === "text" && typeof output.text === "string") return output.text;
  return partsOf(Array.isArray(output) ? output : [output])
    .map((part) => ("text" in part ? part.text : ""))
    .join("\n");
}

function isAssistantTurn(item: AgentItem): boolean {
  return item.role === "assistant" || (item.type !== undefined && item.type !== "message" && item.type !== "function_call_result" && item.role === undefined);
}

/** Canonical messages of the instructions and input items a model call would send. */
export function readItems(items: readonly AgentItem[], instructions: string | undefined): ReadItems {
  const history: Message[] = [];
  const origins = new Map<Message, ItemOrigin>();
  if (instructions !== undefined && instructions !== "") {
    const system: Message = { role: "system", content: instructions };
    history.push(system);
    origins.set(system, { instructions: true });
  }
  // The assistant turn being read: its canonical message and items, until a user, system or result item ends it.
  let turn: { message: Message; items: AgentItem[] } | null = null;
  const close = () => {
    if (turn) origins.set(turn.message, { items: turn.items });
    turn = null;
  };
  for (const item of items) {
    if (item.type === "function_call_result") {
      close();
      const result: Message = { role: "tool", tool_call_id: item.callId ?? "", content: outputText(item.output) };
      history.push(result);
      origins.set(result, { items: [item] });
    } else if (isAssistantTurn(item)) {
      const current: { message: Message; items: AgentItem[] } = turn ?? { message: { role: "assistant", content: null }, items: [] };
      if (!turn) history.push(current.message);
      turn = current;
      current.items.push(item);
      addToTurn(current.message, item);
    } else {
      close();
      const read = buildMessage(item.role === "system" ? "system" : "user", partsOf(item.content));
      history.push(read);
      origins.set(read, { items: [item] });
    }
  }
  close();
  return { history, origins };
}

/** Adds an assistant turn's item to its canonical message: text, a call, or reasoning. */
function addToTurn(message: Message, item: AgentItem): void {
  if (item.role === "assistant") {
    const text = partsOf(item.content).filter((part) => part.type === "text");
    if (text.length > 0) message.content = `${message.content ?? ""}${text.map((part) => ("text" in part ? part.text : "")).join("")}`;
  } else if (item.type === "function_call") {
    const call: ToolCall = { id: item.callId ?? "", type: "function", function: { name: item.name ?? "", arguments: item.arguments ?? "" } };
    message.tool_calls = [...(message.tool_calls ?? []), call];
  } else if (item.type === "reasoning") {
    const text = partsOf(item.content)
      .map((part) => ("text" in part ? part.text : ""))
      .join("\n");
    message.parts = [...(message.parts ?? []), { type: "reasoning", text }];
  }
}

/** The instructions and input items of a built request: kept messages as their items, the others written anew. */
export function writeItems(messages: readonly Message[], origins: ReadonlyMap<Message, ItemOrigin>): { instructions?: string; input: AgentItem[] } {
  const names = new Map<string, string>();
  for (const message of messages) for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  let instructions: string | undefined;
  const input: AgentItem[] = [];
  for (const message of messages) {
    const origin = origins.get(message);
    if (origin && "instructions" in origin) instructions = message.content ?? "";
    else if (origin) input.push(...origin.items);
    else input.push(...writeMessage(message, names));
  }
  return { ...(instructions === undefined ? {} : { instructions }), input };
}

function writeMessage(message: Message, names: ReadonlyMap<string, string>): AgentItem[] {
  const content = message.content ?? "";
  if (message.role === "system" || message.role === "user") return [{ role: message.role, content }];
  if (message.role === "tool") {
    const callId = message.tool_call_id ?? "";
    return [{ type: "function_call_result", callId, name: names.get(callId) ?? "", status: "completed", output: content }];
  }
  const items: AgentItem[] = content === "" ? [] : [{ role: "assistant", status: "completed", content: [{ type: "output_text", text: content }] }];
  for (const call of message.tool_calls ?? [])
    items.push({ type: "function_call", callId: call.id, name: call.function.name, arguments: call.function.arguments, status: "completed" });
  return items;
}
