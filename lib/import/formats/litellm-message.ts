/**
 * What agents built on LiteLLM (OpenHands, SWE-agent, mini-swe-agent) save of
 * a model call: the answer's message, with Anthropic's `thinking_blocks`
 * beside `content`, and the whole response, whose id, model, usage and finish
 * reason are the call's facts.
 */
import { type CallFacts, isoTime, readReportedUsage } from "@/lib/formats";
import { isRecord } from "../issues";

const ANTHROPIC_FORMAT = "anthropic-claude-v1";
const REASONING_FIELDS = ["reasoning_details", "reasoning_content", "reasoning", "thinking_blocks"];

/**
 * A LiteLLM assistant message as a chat message: `thinking_blocks` (signed
 * thinking and redacted thinking) become `reasoning_details`, the chat
 * convention that keeps signatures, so the chat reader keeps them as reasoning.
 */
export function litellmChatMessage(message: Record<string, unknown>): Record<string, unknown> {
  const blocks = message.thinking_blocks;
  if (!Array.isArray(blocks) || blocks.length === 0 || message.reasoning_details != null) return message;
  const { thinking_blocks: _converted, ...rest } = message;
  const details = blocks.map((block: unknown, index) => {
    if (!isRecord(block)) return block;
    if (block.type === "redacted_thinking") return { type: "reasoning.encrypted", data: block.data, format: ANTHROPIC_FORMAT, index };
    const entry: Record<string, unknown> = { type: "reasoning.text", text: block.thinking, format: ANTHROPIC_FORMAT, index };
    if (typeof block.signature === "string") entry.signature = block.signature;
    return entry;
  });
  return { ...rest, reasoning_details: details };
}

/** True when the message carries reasoning of its own, in any of the fields LiteLLM and OpenRouter use. */
export function hasReasoning(message: Record<string, unknown>): boolean {
  return REASONING_FIELDS.some((field) => message[field] !== undefined && message[field] !== null);
}

/** The response's first choice's message, when there is one. */
export function responseMessage(response: unknown): Record<string, unknown> | undefined {
  if (!isRecord(response) || !Array.isArray(response.choices) || !isRecord(response.choices[0])) return undefined;
  const message = response.choices[0].message;
  return isRecord(message) ? message : undefined;
}

/**
 * A chat completion's facts: model, usage, id and finish reason; `at` is the
 * time the agent recorded, else the response's `created`.
 */
export function completionFacts(response: unknown, at?: unknown): CallFacts | undefined {
  const facts: CallFacts = {};
  const time = isoTime(at) ?? (isRecord(response) ? isoTime(response.created ?? response.created_at) : undefined);
  if (time !== undefined) facts.at = time;
  if (isRecord(response)) {
    if (typeof response.model === "string") facts.model = response.model;
    const usage = readReportedUsage(response.usage);
    if (usage !== undefined) facts.usage = usage;
    if (typeof response.id === "string") facts.responseId = response.id;
    const choice = Array.isArray(response.choices) && isRecord(response.choices[0]) ? response.choices[0] : undefined;
    const stop = choice?.finish_reason ?? response.status;
    if (typeof stop === "string") facts.stopReason = stop;
  }
  return Object.keys(facts).length === 0 ? undefined : facts;
}
