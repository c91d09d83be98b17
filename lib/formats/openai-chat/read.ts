/**
 * OpenAI Chat Completions messages → canonical messages (F-C1–F-C6 in SPEC.md).
 * The canonical shape is chat's own, so this is validation plus what real
 * logs carry besides: content parts, legacy functions, the developer role,
 * refusals, audio, reasoning, cache marks and unknown fields (kept as extras).
 */
import type { ContentPart, Message, ProviderExtras, Role, ToolCall } from "@/lib/context/messages";
import { buildMessage, withExtras } from "../canonical";
import { readCacheControl } from "../cache";
import { ConversionContext, isRecord, otherFields } from "../context";
import type { JsonPath, ReadOptions, ReadResult } from "../types";
import { readChatContent } from "./content";
import { readReasoningDetails } from "./reasoning";
import { readChatToolCalls } from "./tool-calls";

// Developer and function are accepted too, as the older spellings of system and tool.
const ROLES = "system, user, assistant or tool";
const KNOWN_FIELDS = [
  "role",
  "content",
  "name",
  "tool_calls",
  "tool_call_id",
  "function_call",
  "refusal",
  "audio",
  "reasoning_details",
  "reasoning_content",
  "reasoning",
  "cache_control",
];

/** Pending legacy `function_call`s, so a `function` result gets its call's id (F-C3). */
type LegacyCalls = { id: string; name: string }[];

/** Reads a chat `messages` array; throws `FormatError` listing every problem. */
export function readChatMessages(raw: unknown, options: ReadOptions = {}): ReadResult {
  const context = new ConversionContext("openai-chat", options.path ?? []);
  const messages = readChatMessageList(raw, context);
  context.finish();
  return { messages, warnings: context.warnings };
}

/** Reads messages into canonical form, recording problems in `context` (paths relative to its base). */
export function readChatMessageList(raw: unknown, context: ConversionContext): Message[] {
  const messages: Message[] = [];
  if (!Array.isArray(raw)) {
    context.fail([], "messages must be an array of chat messages");
    return messages;
  }
  const legacy: LegacyCalls = [];
  for (let index = 0; index < raw.length && !context.isFull; index += 1) {
    const message = readMessage(raw[index], { path: [index], index, at: messages.length }, context, legacy);
    if (message !== undefined) messages.push(message);
  }
  return messages;
}

/** One chat message on its own (a response's `choices[0].message`) → canonical, or undefined when broken. */
export function readChatMessage(value: unknown, context: ConversionContext): Message | undefined {
  return readMessage(value, { path: [], index: 0, at: 0 }, context, []);
}

/** Where a message is: its path, its index in the source array, its index among the canonical messages. */
interface Place {
  path: JsonPath;
  index: number;
  at: number;
}

function readMessage(value: unknown, place: Place, context: ConversionContext, legacy: LegacyCalls): Message | undefined {
  const { path, index, at } = place;
  if (!isRecord(value)) {
    context.fail(path, "each message must be an object with a role and content", index);
    return undefined;
  }
  const role = value.role;
  if (typeof role !== "string" || !["system", "developer", "user", "assistant", "tool", "function"].includes(role)) {
    context.fail(
      [...path, "role"],
      role === undefined ? `a message needs a role (${ROLES})` : `unknown role ${JSON.stringify(role)}: expected ${ROLES}`,
      index,
    );
    return undefined;
  }
  if (role !== "assistant" && Array.isArray(value.tool_calls) && value.tool_calls.length > 0) {
    context.fail([...path, "tool_calls"], "only assistant messages can have tool_calls", index);
    return undefined;
  }
  if (value.name !== undefined && value.name !== null && typeof value.name !== "string") {
    context.fail([...path, "name"], "name must be a string", index);
    return undefined;
  }
  const parts = readChatContent(value.content, role, context, path, index);
  if (parts === undefined) return undefined;
  const extras = withExtras(undefined, "openai", {
    role: role === "developer" || role === "function" ? role : undefined,
    fields: otherFields(value, KNOWN_FIELDS.concat(nullFields(value))),
  });
  if (role === "assistant") return readAssistant(value, parts, { path, index, at, context, legacy, extras });
  const name = typeof value.name === "string" ? value.name : undefined;
  const cache = readCacheControl(value.cache_control, context, [...path, "cache_control"], index);
  if (role === "tool" || role === "function") {
    const id = role === "tool" ? value.tool_call_id : legacyResultId(legacy, name, index);
    if (typeof id !== "string" || id === "") {
      context.fail([...path, "tool_call_id"], id === "" ? "a tool message has an empty tool_call_id" : "a tool message needs a string tool_call_id", index);
      return undefined;
    }
    if (role === "function") {
      if (name === undefined) context.fail([...path, "name"], "a function message needs the string name of the function", index);
      context.warn("legacy-function-call", "a legacy function message became a tool message", path, at);
    }
    return buildMessage("tool", parts, { tool_call_id: id, name, cache_control: cache, extras });
  }
  const canonicalRole: Role = role === "developer" ? "system" : (role as Role);
  return buildMessage(canonicalRole, parts, { name, cache_control: cache, extras });
}

function nullFields(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] === null);
}

interface AssistantScope {
  path: JsonPath;
  index: number;
  at: number;
  context: ConversionContext;
  legacy: LegacyCalls;
  extras: ProviderExtras | undefined;
}

function readAssistant(value: Record<string, unknown>, content: ContentPart[], scope: AssistantScope): Message | undefined {
  const { path, index, at, context } = scope;
  const parts: ContentPart[] = [];
  let extras = scope.extras;
  if (value.reasoning_details !== undefined && value.reasoning_details !== null) {
    parts.push(...readReasoningDetails(value.reasoning_details, context, [...path, "reasoning_details"], index));
  } else {
    const field = typeof value.reasoning_content === "string" ? "reasoning_content" : typeof value.reasoning === "string" ? "reasoning" : undefined;
    if (field !== undefined) {
      parts.push({ type: "reasoning", text: value[field] as string });
      extras = withExtras(extras, "openai", { reasoningField: field });
    }
  }
  parts.push(...content);
  if (typeof value.refusal === "string") parts.push({ type: "refusal", text: value.refusal });
  const audio = readAudio(value.audio);
  if (audio !== undefined) {
    parts.push(audio.part);
    extras = withExtras(extras, "openai", { audio: audio.extras });
  }
  const calls = readChatToolCalls(value, context, path, index, at);
  if (calls === undefined) return undefined;
  let toolCalls: ToolCall[] = calls.calls;
  if (calls.custom.length > 0) extras = withExtras(extras, "openai", { customCalls: calls.custom });
  if (toolCalls.length === 0 && isRecord(value.function_call)) {
    const legacyCall = readLegacyCall(value.function_call, scope);
    if (legacyCall === undefined) return undefined;
    toolCalls = [legacyCall];
    extras = withExtras(extras, "openai", { functionCall: true });
  }
  const name = typeof value.name === "string" ? value.name : undefined;
  const cache = readCacheControl(value.cache_control, context, [...path, "cache_control"], index);
  return buildMessage("assistant", parts, { tool_calls: toolCalls, name, cache_control: cache, extras });
}

function readAudio(audio: unknown): { part: ContentPart; extras?: Record<string, unknown> } | undefined {
  if (!isRecord(audio) || typeof audio.id !== "string") return undefined;
  const rest = otherFields(audio, ["id", "data", "transcript"]);
  if (typeof audio.data !== "string") return { part: { type: "audio", source: { type: "file", fileId: audio.id } }, extras: rest };
  const part: ContentPart = { type: "audio", source: { type: "base64", mediaType: "audio/wav", data: audio.data } };
  if (typeof audio.transcript === "string") part.transcript = audio.transcript;
  return { part, extras: { id: audio.id, ...rest } };
}

function readLegacyCall(call: Record<string, unknown>, scope: AssistantScope): ToolCall | undefined {
  const path: JsonPath = [...scope.path, "function_call"];
  if (typeof call.name !== "string" || call.name === "") {
    scope.context.fail([...path, "name"], "a function_call needs a string function name", scope.index);
    return undefined;
  }
  let args = call.arguments ?? "{}";
  if (typeof args !== "string") {
    scope.context.warn("arguments-stringified", `function_call '${call.name}' had object arguments; kept them as a JSON string`, path, scope.at);
    args = JSON.stringify(args);
  }
  scope.context.warn("legacy-function-call", "a legacy function_call became a tool call", path, scope.at);
  const id = `legacy_call_${scope.index}`;
  scope.legacy.push({ id, name: call.name });
  return { id, type: "function", function: { name: call.name, arguments: args as string } };
}

/** The id of the latest unanswered legacy call of this name (else the latest), so call and result pair (F-C3). */
function legacyResultId(legacy: LegacyCalls, name: string | undefined, index: number): string {
  let position = -1;
  for (let candidate = legacy.length - 1; candidate >= 0 && position === -1; candidate -= 1) {
    if (legacy[candidate].name === name) position = candidate;
  }
  if (position === -1) position = legacy.length - 1;
  if (position === -1) return `legacy_call_${index}`;
  const [call] = legacy.splice(position, 1);
  return call.id;
}
