// Live updates: an event bus per conversation (shared by every instance on PostgreSQL) and its EventSource stream.
export { LiveBus, getLiveBus, ALL_CONVERSATIONS, type LiveListener } from "./bus";
export { publishAppended, publishBranchCreated, publishLiveEvent } from "./publish";
export { ensureSharedLive, SharedLive, liveChannelOf, noticeOf, eventOfNotice, MAX_NOTIFY_BYTES, type SharedLiveOptions } from "./shared";
export { liveEventResponse, formatLiveEvent, EVENT_STREAM_HEADERS, HEARTBEAT_MS, type LiveStreamOptions } from "./sse";
export {
  LIVE_EVENT_TYPES,
  type LiveEvent,
  type LiveEventType,
  type ConversationUpdatedEvent,
  type BranchCreatedEvent,
  type ExchangeStartedEvent,
  type ExchangeRecordedEvent,
  type ExchangeSummary,
  type AppendedMessages,
} from "./events";
