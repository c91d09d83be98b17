import "server-only";

// Seed 002's three stages as server-side services: persisted, branch-scoped
// summary and checkpoint chains (stage 1), inheritance through the storage
// layer's fork visibility without write-back (stage 2), retrieval-aware
// prompt assembly with a deterministic over-budget stop (stage 3).
export { settingsOfConversation, type MemorySettings } from "./settings";
export { recordMessages, type RecordMessagesOptions, type RecordMessagesResult } from "./record";
export { compactBranch, KEPT_ROUNDS, type CompactionResult, type CompactBranchOptions, type CompactionReason } from "./compaction";
export { assemblePrompt, type AssembledPrompt, type AssemblePromptOptions, type ShrinkStep } from "./assemble";
export type { PromptSection } from "./prompt";
export { retrieveRelevant, DEFAULT_RETRIEVAL_LIMIT, type RetrievalHit, type RetrieveOptions } from "./retrieval";
export { reloadOffloadedContent } from "./offloaded";
export { StaleStateError } from "./state";
