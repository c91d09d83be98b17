/**
 * Gemini `contents` → canonical messages (F-G1–F-G4 in SPEC.md). A model turn's
 * function calls become tool calls; a user turn's function responses become
 * tool messages before the rest of the turn. Gemini ids are optional: a call
 * without one gets a stable id from its position, and its response is paired
 * with the oldest unanswered call of the same name.
 */
import type { ContentPart, Message, ToolCall } from "@/lib/context/messages";
import { buildMessage, withExtras } from "../canonical";
import { isRecord, otherFields, type ConversionContext } from "../context";
import type { JsonPath } from "../types";
import { field, readGeminiPart } from "./parts";

/** Calls waiting for their response, oldest first. */
type Pending = { id: string; name: string }[];

/** Reads `contents`, appending to `messages` (which may hold the system instruction). */
export function readGeminiContents(raw: unknown, context: ConversionContext, messages: Message[] = []): Message[] {
  if (!Array.isArray(raw)) {
    context.fail([], "contents must be an array of {role, parts}");
    return messages;
  }
  const pending: Pending = [];
  for (let index = 0; index < raw.length && !context.isFull; index += 1) readContent(raw[index], [index], index, context, messages, pending);
  return messages;
}

/** One content at `path` (a response candidate's content too), appending what it becomes. */
export function readContent(value: unknown, path: JsonPath, index: number, context: ConversionContext, messages: Message[], pending: Pending = []): void {
  if (!isRecord(value) || !Array.isArray(value.parts)) {
    context.fail(isRecord(value) ? [...path, "parts"] : path, "each content must be an object {role, parts: [...]}", index);
    return;
  }
  const role = value.role ?? "user";
  if (role !== "user" && role !== "model" && role !== "function" && role !== "tool") {
    context.fail([...path, "role"], `unknown role ${JSON.stringify(role)}: a Gemini content's role is "user" or "model"`, index);
    return;
  }
  const reader = { context, path: [...path, "parts"], index, messages, pending };
  if (role === "model") readModel(value.parts, reader);
  else readUser(value.parts, reader);
}

interface PartReader {
  context: ConversionContext;
  path: JsonPath;
  index: number;
  messages: Message[];
  pending: Pending;
}

function partAt(parts: readonly unknown[], position: number, reader: PartReader): Record<string, unknown> | undefined {
  const part = parts[position];
  if (isRecord(part)) return part;
  reader.context.fail([...reader.path, position], "a part must be an object", reader.index);
  return undefined;
}

function readOther(part: Record<string, unknown>, position: number, reader: PartReader): ContentPart | undefined {
  const result = readGeminiPart(part, (name, message) => reader.context.fail([...reader.path, position, name], message, reader.index));
  return result === null ? { type: "provider", provider: "gemini", data: part } : result;
}

function readModel(parts: readonly unknown[], reader: PartReader): void {
  const { context, path, index } = reader;
  const content: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const signatures: Record<string, string> = {};
  let generated = false;
  parts.forEach((_, position) => {
    const part = partAt(parts, position, reader);
    if (part === undefined) return;
    const call = field(part, "functionCall");
    if (call === undefined) {
      const read = readOther(part, position, reader);
      if (read !== undefined) content.push(read);
      return;
    }
    if (!isRecord(call) || typeof call.name !== "string" || call.name === "")
      return context.fail([...path, position, "functionCall"], "a functionCall needs a string name", index);
    if (call.args !== undefined && !isRecord(call.args))
      return context.fail([...path, position, "functionCall", "args"], "a functionCall's args must be an object", index);
    const id = typeof call.id === "string" && call.id !== "" ? call.id : `gemini_call_${index}_${position}`;
    generated ||= id !== call.id;
    calls.push({ id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } });
    reader.pending.push({ id, name: call.name });
    const signature = field(part, "thoughtSignature");
    if (typeof signature === "string") signatures[id] = signature;
  });
  if (generated) context.warn("call-id-generated", "Gemini function calls carry no ids here; each got one from its position", path, reader.messages.length);
  const extras = withExtras(undefined, "gemini", {
    signatures: Object.keys(signatures).length > 0 ? signatures : undefined,
    generatedIds: generated ? true : undefined,
  });
  reader.messages.push(buildMessage("assistant", content, { tool_calls: calls, extras }));
}

function readUser(parts: readonly unknown[], reader: PartReader): void {
  const content: ContentPart[] = [];
  let results = 0;
  parts.forEach((_, position) => {
    const part = partAt(parts, position, reader);
    if (part === undefined) return;
    const response = field(part, "functionResponse");
    if (response === undefined) {
      const read = readOther(part, position, reader);
      if (read !== undefined) content.push(read);
      return;
    }
    const message = readResponse(response, [...reader.path, position, "functionResponse"], reader);
    if (message === undefined) return;
    reader.messages.push(message);
    results += 1;
  });
  // F-G3: tool results follow their call directly, so the user's own parts come after them.
  if (content.length > 0 || results === 0) reader.messages.push(buildMessage("user", content));
}

function readResponse(response: unknown, path: JsonPath, reader: PartReader): Message | undefined {
  const { context, index } = reader;
  if (!isRecord(response) || typeof response.name !== "string" || response.name === "") {
    return void context.fail(path, "a functionResponse needs a string name and a response object", index);
  }
  if (response.response !== undefined && !isRecord(response.response))
    return void context.fail([...path, "response"], "a functionResponse's response must be an object", index);
  const parts: ContentPart[] = [{ type: "text", text: responseText(response.response ?? {}) }];
  if (Array.isArray(response.parts)) {
    response.parts.forEach((inner: unknown, position) => {
      if (!isRecord(inner)) return context.fail([...path, "parts", position], "a part must be an object", index);
      const part = readGeminiPart(inner, (name, message) => context.fail([...path, "parts", position, name], message, index));
      if (part !== undefined) parts.push(part ?? { type: "provider", provider: "gemini", data: inner });
    });
  }
  let id = typeof response.id === "string" && response.id !== "" ? response.id : undefined;
  const generated = id === undefined;
  if (id === undefined) id = pairByName(reader.pending, response.name) ?? `gemini_result_${index}_${String(path.at(-2))}`;
  else removePending(reader.pending, id);
  const extras = withExtras(undefined, "gemini", {
    generatedIds: generated ? true : undefined,
    fields: otherFields(response, ["id", "name", "response", "parts"]),
  });
  return buildMessage("tool", parts, { tool_call_id: id, name: response.name, extras });
}

/** G4: a response without an id answers the oldest unanswered call of its name. */
function pairByName(pending: Pending, name: string): string | undefined {
  const position = pending.findIndex((call) => call.name === name);
  if (position === -1) return undefined;
  return pending.splice(position, 1)[0].id;
}

function removePending(pending: Pending, id: string): void {
  const position = pending.findIndex((call) => call.id === id);
  if (position !== -1) pending.splice(position, 1);
}

/** A response object as tool-result text: `{output: "..."}` alone is its string, anything else its JSON. */
function responseText(response: Record<string, unknown>): string {
  const keys = Object.keys(response);
  if (keys.length === 1 && keys[0] === "output" && typeof response.output === "string") return response.output;
  return JSON.stringify(response);
}

/** Tool-result text as a response object, the inverse of `responseText`. */
export function responseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    const keys = isRecord(value) ? Object.keys(value) : [];
    const isOutputOnly = keys.length === 1 && keys[0] === "output" && typeof (value as Record<string, unknown>).output === "string";
    if (isRecord(value) && JSON.stringify(value) === text && !isOutputOnly) return value;
  } catch {
    // Plain text: wrapped below.
  }
  return { output: text };
}
