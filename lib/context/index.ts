// The engine's only public entry (SPEC.md). Isomorphic: no Node built-ins, Prisma or React.
// The tokenizer-free part lives in ./light (the page's main thread imports that, I2); this adds
// state, contexts, processors and token counting on top of it.
export * from "./light";
export { ContextState, STATE_KEYS, type KnownState } from "./state";
export { Context, type ContextOptions } from "./context";
export {
  toUsage,
  addUsage,
  subtractUsage,
  type UsageInput,
  type OpenAIChatUsage,
  type OpenAIResponsesUsage,
  type AnthropicUsage,
  type AiSdkUsage,
} from "./usage";
export {
  ContextProcessor,
  ProcessorPipeline,
  CONTEXT_EVENTS,
  type ContextProcessorOptions,
  type ProcessorResult,
  type PipelineEvents,
  type ProcessorPipelineOptions,
} from "./pipeline";
export * from "./processors";
export { defaultPipeline, buildPipeline, createProcessor, type PipelineDependencies } from "./default-pipeline";
export { processHistory, type ProcessHistoryOptions, type ProcessHistoryResult } from "./run";
export { appendMessages } from "./history/index-of";
export { historyWork, type HistoryWork } from "./history/work";
export * from "./request";
export * from "./replay";
export { extractiveSummarizer, summarizeConversation, summarizeToolChain, type Summarizer, type SummarizerOptions } from "./summarizer";
export { contentHandle, randomHandle, type HandleFactory } from "./handles";
export {
  TiktokenCounter,
  sharedCounter,
  TOKENS_PER_MESSAGE,
  TOKENS_PER_NAME,
  TOKENS_TO_PRIME_REPLY,
  type TiktokenCounterOptions,
} from "./tokens/counter";
export { getTextEncoder } from "./tokens/encodings";
export { computeHistoryBudget, DEFAULT_CONTEXT_WINDOW, type HistoryBudgetOptions } from "./tokens/budget";
export { resolveEncoding } from "./tokens/resolve";
export { CheckpointStore, type CheckpointStoreOptions } from "./checkpoints";
export { TokenTracker, type TokenStep } from "./tracker";
export { reloadOffloaded, getContextTools, runContextTool, type ContextTool, type TodoItem, type KnowledgeItem } from "./tools";
export type { Bm25Options } from "./retrieval";
export { deepFreeze } from "./freeze";
export { deepCopy } from "./copy";
