import type { EncodingName } from "./tokens/encoding-names";

/** The processors the engine ships, by the name each registers under. */
export type ProcessorKind =
  | "message_offloader"
  | "dialogue_compressor"
  | "round_window"
  | "summarize"
  | "token_budget"
  | "tool_result_offloader"
  | StrategyProcessorKind;

/** The context strategies of other agents, as processors (E-CS1–E-CS4): none is in the default pipeline. */
export type StrategyProcessorKind = "clear_tool_uses" | "observation_masking" | "auto_compact" | "token_window";

/** Anthropic-style tool-result clearing (E-CS1). */
export interface ClearToolUsesSettings {
  /** Clear only once the request's history holds more than this many tokens. */
  triggerTokens: number;
  /** The newest tool uses (a call with its result) left as they are. */
  keepToolUses: number;
  /** Clear nothing unless at least this many tokens would go. */
  clearAtLeastTokens: number;
  /** Tools whose uses are never cleared, by name. */
  excludeTools: readonly string[];
  /** Also clear the calls' arguments (the call and its id stay, P1). */
  clearToolInputs: boolean;
  /** What a cleared result (and cleared arguments) read instead. */
  placeholder: string;
}

/** Observation masking: only the newest tool results are shown (E-CS2). */
export interface ObservationMaskingSettings {
  /** Tool results (observations) left as they are, counted from the end. */
  keepObservations: number;
  placeholder: string;
}

/** Claude-Code-style auto-compaction (E-CS3). */
export interface AutoCompactSettings {
  /** Compact once the request passes this fraction of the context window (0 < fraction ≤ 1). */
  fraction: number;
  /** Newest rounds kept as they are, the incomplete one included (≥ 1). */
  keepRounds: number;
}

/** A window by tokens alone (E-CS4). */
export interface TokenWindowSettings {
  /** Tokens the history may hold; the oldest whole rounds go until it fits. */
  maxTokens: number;
}

/** Settings of the strategy processors, by kind; a missing field takes its default. */
export interface ProcessorTuning {
  clear_tool_uses?: Partial<ClearToolUsesSettings>;
  observation_masking?: Partial<ObservationMaskingSettings>;
  auto_compact?: Partial<AutoCompactSettings>;
  token_window?: Partial<TokenWindowSettings>;
}

/** Tunables of the shipped processors; config-driven ones (rounds, thresholds, budget) come from the config. */
export interface ProcessorSettings {
  maxMessageSize?: number;
  maxToolResultSize?: number;
  minChainLength?: number;
  encoding?: EncodingName;
  /** Settings of the strategy processors (E-CS1–E-CS4). */
  tuning?: ProcessorTuning;
}

/** One entry of a serialisable pipeline description: the playground toggles and reorders these. */
export interface ProcessorSpec {
  kind: ProcessorKind;
  enabled: boolean;
}

/** The recommended order (E-PL4): offload, compress, window, summarize, budget; then the post-tool offloader. */
export const DEFAULT_PROCESSOR_ORDER: readonly ProcessorKind[] = Object.freeze([
  "message_offloader",
  "dialogue_compressor",
  "round_window",
  "summarize",
  "token_budget",
  "tool_result_offloader",
]);

/** Defaults of the strategy processors' settings (E-CS1–E-CS4). */
export const STRATEGY_DEFAULTS: Readonly<{
  clear_tool_uses: Readonly<ClearToolUsesSettings>;
  observation_masking: Readonly<ObservationMaskingSettings>;
  auto_compact: Readonly<AutoCompactSettings>;
  token_window: Readonly<TokenWindowSettings>;
}> = Object.freeze({
  // Anthropic's context editing: past a trigger, the oldest tool results go; the newest three uses stay.
  clear_tool_uses: Object.freeze({
    triggerTokens: 30_000,
    keepToolUses: 3,
    clearAtLeastTokens: 0,
    excludeTools: Object.freeze([]),
    clearToolInputs: false,
    placeholder: "[tool result cleared]",
  }),
  // Observation masking as studied for coding agents: the newest observations stay, older ones are masked.
  observation_masking: Object.freeze({ keepObservations: 5, placeholder: "[earlier tool result omitted]" }),
  // Claude Code compacts when the conversation nears the window.
  auto_compact: Object.freeze({ fraction: 0.8, keepRounds: 2 }),
  token_window: Object.freeze({ maxTokens: 16_000 }),
});

/** The strategy processors, in the order the presets list them. */
export const STRATEGY_PROCESSOR_KINDS: readonly StrategyProcessorKind[] = Object.freeze([
  "clear_tool_uses",
  "observation_masking",
  "auto_compact",
  "token_window",
]);

/** Every processor kind the engine ships. */
export const PROCESSOR_KINDS: readonly ProcessorKind[] = Object.freeze([...DEFAULT_PROCESSOR_ORDER, ...STRATEGY_PROCESSOR_KINDS]);

export function defaultPipelineSpec(): ProcessorSpec[] {
  return DEFAULT_PROCESSOR_ORDER.map((kind) => ({ kind, enabled: true }));
}
