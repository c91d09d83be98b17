// Live updates: an in-process event bus per conversation and its EventSource stream.
export { LiveBus, getLiveBus, publishLiveEvent, ALL_CONVERSATIONS, type LiveListener } from "./bus";
export { publishAppended, publishBranchCreated } from "./publish";
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
