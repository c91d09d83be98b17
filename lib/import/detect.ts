/**
 * Format detection: the container's shape first (`{traj}`, `{messages}`, an
 * array, one message), then, for messages, the dialect by its markers.
 */
import { isRecord } from "./issues";
import type { Dialect } from "./requests";

/** What one JSON value holds. */
export type Shape = "tau-bench-entry" | "request" | "message" | "messages" | "tau-bench-entries" | "requests";

/** The shape of a parsed JSON value; undefined when it is none of the known ones. */
export function classify(value: unknown): Shape | undefined {
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (isRecord(first) && "traj" in first) return "tau-bench-entries";
    if (isRecord(first) && "messages" in first && !("role" in first)) return "requests";
    // Only an array that starts like a chat message is read as messages: anything else is an unknown format, not "a message needs a role".
    return value.some((element) => isRecord(element) && "role" in element) ? "messages" : undefined;
  }
  if (!isRecord(value)) return undefined;
  if ("traj" in value) return "tau-bench-entry";
  if ("messages" in value) return "request";
  if ("role" in value) return "message";
  return undefined;
}

const anthropicBlocks = new Set(["tool_use", "tool_result", "thinking", "redacted_thinking"]);
const openAIRoles = new Set(["system", "developer", "tool", "function"]);
const openAIFields = ["tool_calls", "tool_call_id", "function_call"];

/**
 * Anthropic when its markers (content blocks `tool_use`, `tool_result`,
 * `thinking`, image `source`, a top-level `system`, tools with `input_schema`)
 * outnumber OpenAI's (roles `system`/`tool`/..., `tool_calls`, `image_url`
 * parts). Plain user/assistant text reads the same either way: OpenAI.
 */
export function detectDialect(messages: readonly unknown[], request?: Record<string, unknown>): Dialect {
  let anthropic = 0;
  let openai = 0;
  if (request !== undefined && request.system != null) anthropic += 1;
  if (request !== undefined && Array.isArray(request.tools)) {
    for (const tool of request.tools) {
      if (isRecord(tool) && "input_schema" in tool) anthropic += 1;
      else if (isRecord(tool) && "function" in tool) openai += 1;
    }
  }
  for (const message of messages) {
    if (!isRecord(message)) continue;
    if (typeof message.role === "string" && openAIRoles.has(message.role)) openai += 1;
    for (const field of openAIFields) if (message[field] != null) openai += 1;
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isRecord(block)) continue;
      if (typeof block.type === "string" && anthropicBlocks.has(block.type)) anthropic += 1;
      else if (block.type === "image" && "source" in block) anthropic += 1;
      else if (block.type === "image_url") openai += 1;
    }
  }
  return anthropic > openai ? "anthropic" : "openai";
}

/** What the value was, for the unknown-format message. */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : `an array whose first element is ${describeValue(value[0])}`;
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return "an empty object";
    const shown = keys.slice(0, 5).join(", ");
    return `an object with keys ${shown}${keys.length > 5 ? ", ..." : ""}`;
  }
  return value === null ? "null" : `a ${typeof value}`;
}
