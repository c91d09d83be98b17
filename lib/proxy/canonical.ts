import { createHash } from "node:crypto";
import type { Message, Role, ToolCall } from "@/lib/context";
import { ProxyRequestError } from "./errors";

/**
 * Agents' wire messages → canonical messages, and the fingerprints the
 * recorder compares histories by. One agent sends the same message in
 * several spellings across turns (content parts or a string, `null` or no
 * content, re-serialised tool arguments), so comparisons go through
 * `messageFingerprint`, never through the raw JSON.
 */

/** How content parts are joined, as lib/import does. */
const PART_SEPARATOR = "\n";
const PLACEHOLDERS: Record<string, string> = {
  image_url: "[image]",
  input_image: "[image]",
  image: "[image]",
  input_audio: "[audio]",
  audio: "[audio]",
  file: "[file]",
  input_file: "[file]",
};

export interface CanonicalMessage {
  message: Message;
  /** The agent's message, kept when the canonical form loses something (content parts, a developer role, legacy fields). */
  wire?: Record<string, unknown>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (!isRecord(part)) return JSON.stringify(part);
  if (typeof part.text === "string") return part.text;
  if (part.type === "refusal" && typeof part.refusal === "string") return part.refusal;
  const type = typeof part.type === "string" ? part.type : "part";
  return PLACEHOLDERS[type] ?? `[${type}]`;
}

/** Content as canonical text: strings stay, parts are joined, absent is null; an empty assistant text is null too. */
export function contentOf(content: unknown, role: Role): string | null {
  let text: string | null;
  if (content === undefined || content === null) text = null;
  else if (typeof content === "string") text = content;
  else if (Array.isArray(content)) text = content.map(partText).join(PART_SEPARATOR);
  else text = JSON.stringify(content);
  // Agents echo the model's `content: null` back as "" (and the reverse): one message either way.
  return role === "assistant" && text === "" ? null : text;
}

function toolCallsOf(value: unknown, where: string): ToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ProxyRequestError(`${where}.tool_calls must be an array`, `${where}.tool_calls`);
  return value.map((call: unknown, index) => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (!isRecord(call) || !fn || typeof fn.name !== "string") {
      throw new ProxyRequestError(`${where}.tool_calls[${index}] must be {id, type, function: {name, arguments}}`, `${where}.tool_calls[${index}]`);
    }
    const args = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments ?? {});
    return { id: typeof call.id === "string" ? call.id : `call_${index}`, type: "function", function: { name: fn.name, arguments: args } };
  });
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);
const CANONICAL_FIELDS = new Set(["role", "content", "name", "tool_calls", "tool_call_id"]);

/** One wire message → canonical; throws `ProxyRequestError` naming `messages[index]` when it is not a chat message. */
export function toCanonical(raw: unknown, index: number): CanonicalMessage {
  const where = `messages[${index}]`;
  if (!isRecord(raw) || typeof raw.role !== "string" || !ROLES.has(raw.role)) {
    throw new ProxyRequestError(`${where} must be an object whose role is system, developer, user, assistant or tool`, `${where}.role`);
  }
  let lossy = Array.isArray(raw.content) || raw.role === "developer" || raw.role === "function";
  const role: Role = raw.role === "developer" ? "system" : raw.role === "function" ? "tool" : (raw.role as Role);
  const message: Message = { role, content: contentOf(raw.content, role) };
  if (role === "assistant") {
    const calls = toolCallsOf(raw.tool_calls, where);
    if (calls.length === 0 && isRecord(raw.function_call)) {
      calls.push(...toolCallsOf([{ id: `legacy_call_${index}`, function: raw.function_call }], where));
      lossy = true;
    }
    if (calls.length > 0) message.tool_calls = calls;
  }
  if (role === "tool") {
    const id = typeof raw.tool_call_id === "string" ? raw.tool_call_id : typeof raw.name === "string" ? `legacy_call_${raw.name}` : "";
    if (id === "") throw new ProxyRequestError(`${where} is a tool message without a tool_call_id`, `${where}.tool_call_id`);
    message.tool_call_id = id;
  }
  if (typeof raw.name === "string" && raw.name !== "") message.name = raw.name;
  for (const [field, value] of Object.entries(raw)) {
    if (!CANONICAL_FIELDS.has(field) && value !== null && value !== undefined) lossy = true;
  }
  return lossy ? { message, wire: raw } : { message };
}

/** The request's messages → canonical, in order. */
export function toCanonicalMessages(raw: readonly unknown[]): CanonicalMessage[] {
  return raw.map((message, index) => toCanonical(message, index));
}

/** Tool arguments compare as JSON values when they parse: `{"a": 1}` and `{"a":1}` are one call. */
function normalArguments(text: string): unknown {
  try {
    return sortKeys(JSON.parse(text));
  } catch {
    return text;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}

/**
 * What makes two messages the same turn: role, content, tool calls (id, name,
 * arguments as JSON), tool_call_id and name, hashed. Absent and null, "" and
 * null assistant content, and key order inside arguments do not matter.
 */
export function messageFingerprint(message: Message): string {
  const canonical = [
    message.role,
    message.role === "assistant" && message.content === "" ? null : (message.content ?? null),
    (message.tool_calls ?? []).map((call) => [call.id, call.function.name, normalArguments(call.function.arguments)]),
    message.tool_call_id ?? null,
    message.name || null,
  ];
  return createHash("sha1").update(JSON.stringify(canonical)).digest("base64url");
}

/** The wire form of a canonical message, for sending a processed history upstream. */
export function toWire(message: Message): Record<string, unknown> {
  const wire: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.tool_calls?.length) wire.tool_calls = message.tool_calls;
  if (message.tool_call_id !== undefined) wire.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) wire.name = message.name;
  return wire;
}
