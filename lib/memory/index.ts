import "server-only";

// Persisted memory as server-side services: branch-scoped summary and
// checkpoint chains written when a threshold is crossed (README.md), read by
// forks without write-back, and searched. The next request is made from them
// by `lib/request`.
export { recordMessages, type RecordMessagesOptions, type RecordMessagesResult } from "./record";
export { compactBranch, KEPT_ROUNDS, type CompactionResult, type CompactBranchOptions, type CompactionReason } from "./compaction";
export { retrieveRelevant, DEFAULT_RETRIEVAL_LIMIT, type RetrievalHit, type RetrieveOptions } from "./memory-search";
export { reloadOffloadedContent } from "./offloaded";
export { StaleStateError } from "./branch-state";
export { keepCreated } from "./kept-state";
