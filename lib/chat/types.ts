// The chat recorder's wire types, shared by the route and the browser (no server imports).
import { pairToolCalls, type BudgetVerdict, type Message, type ToolCall } from "@/lib/context/light";
import type { JsonValue, MessageRecord } from "@/lib/db";

/** One tool result pasted by hand, answering a pending call of the branch's last assistant message. */
export interface ChatToolResult {
  tool_call_id: string;
  content: string;
}

/** The body of `POST /api/branches/[branchId]/chat`; an empty body asks the model again (after an error). */
export interface ChatTurnInput {
  userTurn?: string;
  toolResults?: ChatToolResult[];
  /** Default true: the answer is an event stream. */
  stream?: boolean;
}

/** A piece of the assistant's reply as the upstream streams it. */
export type ChatDelta =
  | { type: "text"; text: string }
  /** `id` and `name` arrive with a call's first piece; `arguments` in pieces after. */
  | { type: "tool-call"; index: number; id: string | null; name: string | null; arguments: string };

/** A summary and checkpoint this call wrote, and when. */
export interface WrittenCheckpoint {
  checkpointId: string;
  version: number;
  branchId: string;
  summaryId: string;
  /** History positions the new summary covers, `to` exclusive. */
  fromPosition: number;
  toPosition: number;
  /** Why: a threshold crossed, or compacting to get under the budget. */
  reason: string;
  /** Which write crossed it: the prompt's assembly (the new turn made the branch due) or the assistant's reply. */
  when: "prompt" | "reply";
}

/** The request's numbers: what the playground shows as the next request is what was sent. */
export interface ChatPromptStatus {
  status: "ok" | "compacted" | "budget_exceeded";
  /** Messages sent (0 when the budget stopped the call). */
  messages: number;
  /** The one budget verdict, with the request's tokens. */
  verdict: BudgetVerdict;
}

/** Which summarizer wrote this call's summaries. */
export interface SummarizerReport {
  /** "upstream" when an upstream is configured (its model summarizes), else the engine's extractive one. */
  kind: "upstream" | "extractive";
  /** Summaries asked for during this call. */
  calls: number;
  /** Upstream summaries that failed and were written by the extractive summarizer instead. */
  fallbacks: { reason: string }[];
}

/** What every outcome carries: what was written before it. */
export interface ChatTurnWritten {
  /** Messages this call recorded, in order (the turn, then the reply when there is one). */
  recorded: MessageRecord[];
  checkpoints: WrittenCheckpoint[];
  summarizer: SummarizerReport;
  /** Null when the call failed before the prompt was assembled. */
  prompt: ChatPromptStatus | null;
}

/** The model answered; its reply is recorded. */
export interface ChatTurnDone extends ChatTurnWritten {
  status: "ok";
  message: MessageRecord;
  /** Calls of the reply waiting for their results (paste them, then send). */
  pendingToolCalls: ToolCall[];
  model: string | null;
  finishReason: string | null;
  usage: JsonValue | null;
  exchangeId: string;
}

/** The budget stop: the request does not fit, so no model call was made and nothing more was recorded. */
export interface ChatTurnBudgetExceeded extends ChatTurnWritten {
  status: "budget_exceeded";
  budget: number;
  tokens: number;
  reason: string;
}

/** Why the model's answer is missing. */
export interface ChatUpstreamError {
  /** "upstream": the upstream's own error, as it sent it; "recorder": Context Lab's (timeout, unreachable, a dropped stream). */
  source: "upstream" | "recorder";
  /** The upstream's HTTP status, or ours (502 unreachable or dropped, 504 timeout). */
  status: number;
  type: string;
  code: string | null;
  message: string;
  /** The upstream's body as it sent it (parsed JSON, or text), else null. */
  body: JsonValue | null;
  /** Seconds to wait, from `retry-after` / `retry-after-ms`. */
  retryAfter: number | null;
  /** The headers that explain it (`retry-after`, `x-request-id`, rate limits). */
  headers: Record<string, string>;
}

/** The turn is kept; the reply is not (retry with an empty body). */
export interface ChatTurnFailed extends ChatTurnWritten {
  status: "error";
  error: ChatUpstreamError;
  exchangeId: string | null;
}

export type ChatTurnOutcome = ChatTurnDone | ChatTurnBudgetExceeded | ChatTurnFailed;

/** The recorded turn, before the model is asked. */
export interface ChatTurnRecorded {
  recorded: MessageRecord[];
}

/** The events of the answer stream, by their SSE `event:` name. */
export interface ChatStreamEvents {
  "turn-recorded": ChatTurnRecorded;
  delta: ChatDelta;
  done: ChatTurnDone;
  "budget-exceeded": ChatTurnBudgetExceeded;
  error: ChatTurnFailed;
}

export type ChatStreamEventName = keyof ChatStreamEvents;

export const CHAT_STREAM_EVENTS: readonly ChatStreamEventName[] = ["turn-recorded", "delta", "done", "budget-exceeded", "error"];

/** The tool calls of the history's last assistant message still without a result, paired by the engine's walk (E-P2): a repeated id waits once per call. */
export function pendingToolCalls(messages: readonly Message[]): ToolCall[] {
  const last = pairToolCalls(messages).blocks.at(-1);
  if (!last || last.end !== messages.length) return [];
  return messages[last.at].tool_calls!.filter((_, position) => last.resultAt[position] < 0);
}
