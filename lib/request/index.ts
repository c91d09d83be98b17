// The next request of a branch, the one way it is made: persisted memory as a
// snapshot, the raw history after it, the conversation's resolved settings,
// the engine's request builder (`./next`, which counts tokens: the Web Worker
// and the server import it; `./server` loads its inputs from the database).
// This entry is tokenizer-free, for the page's main thread.
export {
  DEFAULT_RETRIEVAL_LIMIT,
  emptySnapshot,
  memoryForRequest,
  rankMemories,
  type MemoryHit,
  type MemorySnapshot,
  type SnapshotArtifact,
  type SnapshotSummary,
} from "./snapshot";
export type { NextRequest, NextRequestInput, PositionedMessage } from "./next";
export { chatRequestBody, type ChatRequestBody } from "./body";
export {
  requestView,
  stepSummary,
  tokenizerView,
  viewBody,
  type RequestView,
  type SectionView,
  type StepSummary,
  type TokenizerView,
  type ViewableRequest,
  type PromptResponse,
} from "./view";
