import type { CacheBreak, CacheBreakReason, Message, ToolDefinition, UsageCost, UsageTokens } from "@/lib/context/light";

/** One model call of a session, as read from storage, before it is priced (CC-10). */
export interface SessionCall {
  /** The conversation that made it: the session's own, or one of its subagents'. */
  conversationId: string;
  /** Set on a subagent's calls. */
  subagent: boolean;
  /**
   * False for a call of another conversation under the same agent key (P-S3:
   * another run of the agent): it shares the provider's cache, so
   * it is modelled, but it is not this conversation's to list or total (CC-10).
   */
  listed: boolean;
  /** When the answer was written (ISO 8601); null when the source does not say. */
  at: string | null;
  /** When the request was made, epoch milliseconds: `at` less the call's latency (CC-7). */
  startedAt: number | null;
  model: string | null;
  /** The usage the provider reported, when it was kept. */
  usage: UsageTokens | null;
  responseId: string | null;
  exchangeId: string | null;
  /** Where the call's first answer message is stored, for links to it. */
  branchId: string | null;
  position: number | null;
  /** What the call sent. */
  request: { messages: readonly Message[]; tools: readonly ToolDefinition[] };
  /** True when `request` is the body as sent, cache marks included (a recorded call); false when rebuilt from a session log (CC-6). */
  marked: boolean;
  /** The answer's messages: their tokens stand for the output when no usage was kept. */
  reply: readonly Message[];
  /** The agent compacted its history since the call before (CC-9). */
  compacted: boolean;
}

/** A call's tokens by how they are billed (the engine's `UsageTokens`). */
export type CostUsage = UsageTokens;

/** The prediction beside a reported call (CC-11). */
export interface CostPrediction {
  usage: CostUsage;
  costUsd: number | null;
}

/** Reported less predicted: the cache model's error on a call (CC-11). */
export interface CostDifference {
  cacheRead: number;
  /** 5-minute and 1-hour writes together. */
  cacheWrite: number;
  input: number;
  costUsd: number | null;
}

/** One API call of a session, priced (CC-11). */
export interface CostCall {
  index: number;
  at: string | null;
  model: string | null;
  conversationId: string;
  /** "reported" when the provider's usage was kept; else the cache model's prediction. */
  source: "reported" | "predicted";
  usage: CostUsage;
  /** Null when the model has no prices. */
  costUsd: number | null;
  /** The cost part by part (CC-1); null when the model has no prices. */
  breakdown: UsageCost | null;
  /** For a reported call: what the cache model predicted, and the difference. */
  predicted?: CostPrediction;
  difference?: CostDifference;
  cacheBreak: CacheBreak | null;
  /** Set on a subagent's calls. */
  subagent?: { conversationId: string };
  responseId: string | null;
  exchangeId: string | null;
  branchId: string | null;
  position: number | null;
}

/** One call on the session timeline (CC-12). */
export interface CostTimelinePoint {
  index: number;
  at: string | null;
  conversationId: string;
  subagent: boolean;
  cacheRead: number;
  /** 5-minute and 1-hour writes together. */
  cacheWrite: number;
  /** Input tokens neither read nor written. */
  miss: number;
  /** Tokens the previous call of the same conversation left cached that this call did not read. */
  lost: number;
  /** Seconds since the previous call of the same conversation; null for its first call or without times. */
  gapSeconds: number | null;
  /** The lifetime of what the previous call left cached, in seconds; null when it left nothing. */
  ttlSeconds: number | null;
  /** The gap outlived the cache. */
  expired: boolean;
  cacheBreak: CacheBreakReason | null;
}

/** `GET /api/conversations/[id]/cost` (CC-11). */
export interface ConversationCost {
  conversationId: string;
  /** The calls' costs added up, as reported where reported; unpriced calls add nothing. */
  totalUsd: number;
  /** Every call as the cache model predicts it. */
  predictedTotalUsd: number;
  /** Calls whose model has no prices. */
  unpricedCalls: number;
  calls: CostCall[];
  timeline: CostTimelinePoint[];
}
