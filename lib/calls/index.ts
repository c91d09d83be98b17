// The proxy's recorded model calls as the calls view shows them. Rules with ids in README.md.
export { listCallsByConversationId, getCallDetailById, type CallListOptions } from "./server";
export { describeCalls, forwardedMessages, CALL_LOOKBACK, type StoredCall } from "./describe";
export { protocolOfCall } from "./protocol";
export type { CallDetail, CallError, CallPage, CallSummary, CallTokens, CallUsage } from "./types";
