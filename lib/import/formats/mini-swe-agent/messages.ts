/**
 * mini-swe-agent's messages → canonical messages with their facts. Each is the
 * model's own message with an `extra` field mini-swe-agent adds (the raw
 * response, cost, timestamp, parsed actions, return code): chat messages for
 * chat-completion models, Responses objects and items for `*_response` models.
 */
import type { Message } from "@/lib/context/messages";
import { type CallFacts, isoTime, readResponsesItems } from "@/lib/formats";
import { isRecord, type JsonPath, type MessageScope } from "../../issues";
import { readMapped } from "../../requests";
import { readChatWire, type ChatWireMessage } from "../chat-wire";
import { completionFacts, hasReasoning, litellmChatMessage, responseMessage } from "../litellm-message";

/** A message of the trajectory that is not the run's `exit` message, and its index there. */
export interface TrajectoryMessage {
  value: Record<string, unknown>;
  index: number;
}

export interface ReadMessages {
  messages: Message[];
  facts: (CallFacts | undefined)[];
}

function extraOf(message: Record<string, unknown>): Record<string, unknown> {
  return isRecord(message.extra) ? message.extra : {};
}

/** When the agent wrote the message: `extra.timestamp` (2.x) or `timestamp` (1.16+); the response's `created` stands in for older files. */
function factsOf(message: Record<string, unknown>): CallFacts | undefined {
  const extra = extraOf(message);
  const time = extra.timestamp ?? message.timestamp;
  const answered = message.role === "assistant" || message.object === "response";
  if (answered) return completionFacts(message.object === "response" ? message : extra.response, time);
  const at = isoTime(time);
  return at === undefined ? undefined : { at };
}

/** True when the messages are Responses objects and items (`litellm_response` and the like), not chat messages. */
export function isResponsesTrajectory(messages: readonly TrajectoryMessage[]): boolean {
  return messages.some(({ value }) => value.object === "response" || (value.role === undefined && typeof value.type === "string"));
}

/** Chat messages, read in one pass: one canonical message each, so facts line up by index. */
export function readChatMessages(messages: readonly TrajectoryMessage[], scope: MessageScope): ReadMessages {
  const wire: ChatWireMessage[] = messages.map(({ value, index }) => ({ message: chatMessageOf(value), source: [...scope.prefix, index] }));
  const read = readChatWire(scope, wire);
  const facts = messages.map(({ value }) => factsOf(value));
  return { messages: read, facts: read.length === facts.length ? facts : [] };
}

function chatMessageOf(value: Record<string, unknown>): Record<string, unknown> {
  const { extra: _extra, timestamp: _timestamp, ...message } = value;
  if (message.role !== "assistant" || hasReasoning(message)) return litellmChatMessage(message);
  // 1.x kept only the answer's text; its reasoning is in the saved response, when that answer is this message.
  const answer = responseMessage(extraOf(value).response);
  if (answer === undefined || !hasReasoning(answer) || (answer.content ?? "") !== message.content) return litellmChatMessage(message);
  const reasoning = Object.fromEntries(["reasoning_details", "reasoning_content", "reasoning", "thinking_blocks"].map((field) => [field, answer[field]]));
  return litellmChatMessage({ ...message, ...reasoning });
}

/**
 * Responses objects (their `output` items) and items, one source message at a
 * time, so a response's usage goes to the first message it gave (IM-10).
 */
export function readResponsesMessages(messages: readonly TrajectoryMessage[], scope: MessageScope): ReadMessages {
  const read: Message[] = [];
  const facts: (CallFacts | undefined)[] = [];
  for (const { value, index } of messages) {
    const base: JsonPath = [...scope.prefix, index];
    const isResponse = value.object === "response";
    const output = isResponse && Array.isArray(value.output) ? value.output : undefined;
    if (isResponse && output === undefined) {
      scope.fail(index, ["output"], "a response needs its output items");
      continue;
    }
    const items = output ?? [withoutExtra(value)];
    const sources = output === undefined ? [base] : output.map((_, position) => [...base, "output", position]);
    const before = read.length;
    read.push(...readMapped(scope, "openai-responses", sources, (conversion) => readResponsesItems(items, conversion), { source: index, output: read.length }));
    const produced = read.length - before;
    if (produced > 0) facts.push(factsOf(value), ...new Array<undefined>(produced - 1).fill(undefined));
  }
  return { messages: read, facts };
}

function withoutExtra(value: Record<string, unknown>): Record<string, unknown> {
  const { extra: _extra, ...item } = value;
  return item;
}
