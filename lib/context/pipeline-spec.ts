import type { EncodingName } from "./tokens/encoding-names";

/** The processors the engine ships, by the name each registers under. */
export type ProcessorKind = "message_offloader" | "dialogue_compressor" | "round_window" | "summarize" | "token_budget" | "tool_result_offloader";

/** Tunables of the shipped processors; config-driven ones (rounds, thresholds, budget) come from the config. */
export interface ProcessorSettings {
  maxMessageSize?: number;
  maxToolResultSize?: number;
  minChainLength?: number;
  maxTokens?: number;
  encoding?: EncodingName;
}

/** One entry of a serialisable pipeline description: the playground toggles and reorders these. */
export interface ProcessorSpec {
  kind: ProcessorKind;
  enabled: boolean;
}

/** The recommended order (PL4): offload, compress, window, summarize, budget; then the post-tool offloader. */
export const DEFAULT_PROCESSOR_ORDER: readonly ProcessorKind[] = Object.freeze([
  "message_offloader",
  "dialogue_compressor",
  "round_window",
  "summarize",
  "token_budget",
  "tool_result_offloader",
]);

export function defaultPipelineSpec(): ProcessorSpec[] {
  return DEFAULT_PROCESSOR_ORDER.map((kind) => ({ kind, enabled: true }));
}
