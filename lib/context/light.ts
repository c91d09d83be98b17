// The engine without its tokenizer: everything the page's main thread uses
// (structure, config, pipeline specs, errors, handles, retrieval), none of the
// ~3 MB of BPE ranks that counting needs. Counting runs in the Web Worker and
// on the server, which import `@/lib/context`. A test keeps this entry's
// module graph free of the tokenizer (E-I2).
export {
  splitRounds,
  findToolChains,
  roundOfEachMessage,
  isToolCallMessage,
  isFinalAnswer,
  isChainSummary,
  isConversationSummary,
  isEngineSummary,
  contentText,
  TOOL_CHAIN_SUMMARY_PREFIX,
  CONVERSATION_SUMMARY_PREFIX,
  type Role,
  type ToolCall,
  type Message,
  type EngineMark,
  type EngineMarkKind,
  type ContentPart,
  type TextPart,
  type ImagePart,
  type AudioPart,
  type DocumentPart,
  type ReasoningPart,
  type RefusalPart,
  type ProviderPart,
  type ProviderName,
  type MediaSource,
  type CacheControl,
  type ProviderExtras,
  type ToolDefinition,
  type JsonSchema,
  type Round,
  type ToolChain,
} from "./messages";
export {
  partTokens,
  imageTokens,
  audioTokens,
  imageSize,
  DEFAULT_IMAGE_SIZE,
  DEFAULT_AUDIO_SECONDS,
  MEDIA_RULES,
  type MediaRule,
  type MediaTokens,
} from "./tokens/media";
export { sanitizeHistory, hasIntactToolPairs, type HistoryRepair, type SanitizeResult, type SanitizeOptions } from "./sanitize";
export { messageFingerprint, messageKey, sameMessage } from "./same-message";
export { sameJson } from "./hash";
export { pairToolCalls, type ToolPair, type ToolPairing, type ToolCallBlock, type UnpairedToolResult } from "./tool-pairs";
export { ContextError, ProcessorError, CheckpointError, BudgetExceededError, ReplayCancelledError } from "./errors";
export { MarkedError } from "./marked-error";
export {
  makeConfig,
  withConfig,
  MODE_PRESETS,
  AUTOMATION_MODES,
  type AutomationMode,
  type ContextConfig,
  type ContextConfigOptions,
  type ContextExtra,
} from "./config";
export {
  DEFAULT_PROCESSOR_ORDER,
  STRATEGY_PROCESSOR_KINDS,
  PROCESSOR_KINDS,
  STRATEGY_DEFAULTS,
  defaultPipelineSpec,
  type ProcessorKind,
  type StrategyProcessorKind,
  type ProcessorSpec,
  type ProcessorSettings,
  type ProcessorTuning,
  type ClearToolUsesSettings,
  type ObservationMaskingSettings,
  type AutoCompactSettings,
  type TokenWindowSettings,
} from "./pipeline-spec";
export { encodingForModel, isEncodingName, ENCODINGS, DEFAULT_ENCODING, type EncodingName } from "./tokens/encoding-names";
export { offloadMarker, isHandle, OFFLOAD_MARKER_PATTERN } from "./handles";
export { Bm25Index, tokenize, type SearchDocument, type SearchHit } from "./retrieval";
export { ZERO_USAGE, type TokenUsage } from "./usage";
export { setDevelopmentChecks, developmentChecks } from "./checks";
export type { ContextEvent, MessageEffect, MessageEffectKind, TraceStep, PipelineTrace, ProcessorRun } from "./pipeline";
export { toRanges, rangeOf, rangesSize, rangeIndices, onlyIndex, type IndexRanges } from "./history/ranges";
export type { HistoryBudgetResult } from "./tokens/budget";
export type { TokenBudgetExceeded, TokenBudgetTrimmed } from "./state";
export type { Checkpoint } from "./checkpoints";
export type { RequestPolicy } from "./request/policy";
export { budgetVerdict, isUserSystemMessage, type BudgetVerdict, type RequestTokens } from "./request/verdict";
export type { RequestSection, RequestSectionKind } from "./request/sections";
export { coveredBySummary, positionsLabel, type PersistedMemory, type PersistedSummary, type RetrievedMemory } from "./request/memory";
export { PRESETS, PRESET_IDS, PRESET_MODEL, presetPolicy, withModel, rawPolicy } from "./replay/presets";
export { costOfTokens, addCosts, ZERO_COST } from "./replay/cost";
export * from "./cost";
export { policySnippet, policyLiteral, ENGINE_PACKAGE_NAME } from "./replay/snippet";
export type * from "./replay/types";
