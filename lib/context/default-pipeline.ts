import type { ContextConfig } from "./config";
import type { HandleFactory } from "./handles";
import { ProcessorPipeline, type ContextProcessor } from "./pipeline";
import {
  AutoCompactProcessor,
  ClearToolUsesProcessor,
  DialogueCompressor,
  MessageOffloader,
  ObservationMaskingProcessor,
  RoundWindowProcessor,
  SummarizeProcessor,
  TokenBudgetProcessor,
  TokenWindowProcessor,
  ToolResultOffloader,
} from "./processors";
import { extractiveSummarizer, type Summarizer } from "./summarizer";
import { defaultPipelineSpec, type ProcessorKind, type ProcessorSettings, type ProcessorSpec } from "./pipeline-spec";
import { isEncodingName } from "./tokens/encoding-names";

export { DEFAULT_PROCESSOR_ORDER, defaultPipelineSpec, type ProcessorKind, type ProcessorSettings, type ProcessorSpec } from "./pipeline-spec";

/** What a pipeline is built with besides its config. */
export interface PipelineDependencies extends ProcessorSettings {
  /** Defaults to the engine's offline `extractiveSummarizer`. */
  summarizer?: Summarizer;
  createHandle?: HandleFactory;
  now?: () => number;
  /** The message offloader leaves the incomplete round alone (E-O5); the request builder always asks for it. */
  keepIncompleteRound?: boolean;
}

/** One shipped processor, configured from settings and the config. */
export function createProcessor(kind: ProcessorKind, config: ContextConfig, dependencies: PipelineDependencies = {}): ContextProcessor<object> {
  const summarizer = dependencies.summarizer ?? extractiveSummarizer;
  switch (kind) {
    case "message_offloader":
      return new MessageOffloader({
        maxMessageSize: dependencies.maxMessageSize,
        minMessages: config.offloadThreshold ?? 0,
        createHandle: dependencies.createHandle,
        keepIncompleteRound: dependencies.keepIncompleteRound,
      });
    case "tool_result_offloader":
      return new ToolResultOffloader({ maxSize: dependencies.maxToolResultSize, createHandle: dependencies.createHandle });
    case "dialogue_compressor":
      return new DialogueCompressor({ summarizer, minChainLength: dependencies.minChainLength });
    case "round_window":
      return new RoundWindowProcessor();
    case "summarize":
      return new SummarizeProcessor({ summarizer });
    case "token_budget": {
      const configured = config.extra.token_encoding;
      return new TokenBudgetProcessor({
        maxTokens: typeof config.extra.token_budget === "number" ? config.extra.token_budget : undefined,
        encoding: dependencies.encoding ?? (isEncodingName(configured) ? configured : undefined),
      });
    }
    case "clear_tool_uses":
      return new ClearToolUsesProcessor(dependencies.tuning?.clear_tool_uses);
    case "observation_masking":
      return new ObservationMaskingProcessor(dependencies.tuning?.observation_masking);
    case "auto_compact":
      return new AutoCompactProcessor({ ...dependencies.tuning?.auto_compact, summarizer });
    case "token_window":
      return new TokenWindowProcessor(dependencies.tuning?.token_window);
  }
}

/**
 * A pipeline from a spec: enabled processors, in the spec's order. A disabled
 * (`null`) offload threshold leaves the message offloader out (E-CFG3).
 */
export function buildPipeline(spec: readonly ProcessorSpec[], config: ContextConfig, dependencies: PipelineDependencies = {}): ProcessorPipeline {
  const pipeline = new ProcessorPipeline({ now: dependencies.now });
  for (const entry of spec) {
    if (!entry.enabled || (entry.kind === "message_offloader" && config.offloadThreshold === null)) continue;
    pipeline.register(createProcessor(entry.kind, config, dependencies));
  }
  return pipeline;
}

/**
 * The recommended pipeline (E-PL4) for a config.
 * @example const trace = await defaultPipeline(makeConfig("navigator")).fire("pre_llm_call", ctx)
 */
export function defaultPipeline(config: ContextConfig, dependencies: PipelineDependencies = {}): ProcessorPipeline {
  return buildPipeline(defaultPipelineSpec(), config, dependencies);
}
