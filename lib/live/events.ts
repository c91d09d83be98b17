import type { BranchRecord, ConversationRecord, JsonValue, MessageRecord } from "@/lib/db";

/** The live event names, `<noun>-<action>`, as they appear on the SSE `event:` line. */
export const LIVE_EVENT_TYPES = ["conversation-updated", "branch-created", "exchange-started", "exchange-recorded"] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** Messages appended to one branch by one write. */
export interface AppendedMessages {
  branchId: string;
  /** The branch's full history length after the write. */
  branchLength: number;
  /** In position order. */
  messages: MessageRecord[];
}

/** A conversation was created, or messages were appended to one of its branches, or its tools changed. */
export interface ConversationUpdatedEvent {
  type: "conversation-updated";
  conversationId: string;
  at: string;
  /** The conversation as stored after the write. */
  conversation: ConversationRecord;
  /** True on the write that created the conversation. */
  created: boolean;
  /** What was appended, or null when only the conversation row changed. */
  appended: AppendedMessages | null;
}

/** The recorder forked a branch because a request diverged from every recorded history. */
export interface BranchCreatedEvent {
  type: "branch-created";
  conversationId: string;
  at: string;
  /** `parentId` and `forkPosition` say where it was forked. */
  branch: BranchRecord;
}

/** One model call as the live view shows it; the full request and response are on the stored exchange. */
export interface ExchangeSummary {
  id: string;
  /** The branch the request's messages were recorded on. */
  branchId: string;
  /** The branch the reply was recorded on (a fork when a retry answered differently); null without a reply. */
  replyBranchId: string | null;
  /** HTTP status returned to the agent; null while the call runs. */
  status: number | null;
  streamed: boolean;
  durationMs: number | null;
  /** What went wrong (the upstream's error body, a timeout, a dropped stream), else null. */
  error: JsonValue | null;
  model: string | null;
  /** The upstream's usage object when it sent one. */
  usage: JsonValue | null;
  finishReason: string | null;
  /** Messages the agent asked to send. */
  requestMessages: number;
  /** Messages sent after the context pipeline; null when the request was passed through unchanged. */
  sentMessages: number | null;
  createdAt: string;
}

/** A model call started: its request is recorded, the answer is pending. */
export interface ExchangeStartedEvent {
  type: "exchange-started";
  conversationId: string;
  at: string;
  exchange: ExchangeSummary;
}

/** A model call finished (answered, failed or refused) and its outcome is stored. */
export interface ExchangeRecordedEvent {
  type: "exchange-recorded";
  conversationId: string;
  at: string;
  exchange: ExchangeSummary;
}

export type LiveEvent = ConversationUpdatedEvent | BranchCreatedEvent | ExchangeStartedEvent | ExchangeRecordedEvent;
