import type { EncodingName } from "./tokens/encoding-names";

/** How much the engine does on its own: seed 001's automation modes. */
export type AutomationMode = "pilot" | "copilot" | "navigator";

/** Settings the token budget reads from `extra` (seed 000 §7, seed 003). */
export interface ContextExtra {
  token_budget?: number;
  token_encoding?: EncodingName;
  context_window?: number;
  max_output_tokens?: number;
  [key: string]: unknown;
}

/** Frozen engine settings. A threshold of `null` is disabled and never fires. */
export interface ContextConfig {
  readonly mode: AutomationMode;
  readonly historyRounds: number;
  readonly summaryThreshold: number | null;
  readonly offloadThreshold: number | null;
  readonly enableRetrieval: boolean;
  readonly neuronNames: readonly string[];
  readonly extra: Readonly<ContextExtra>;
}

/** Fields `makeConfig` lets a caller override. */
export type ContextConfigOptions = Partial<Omit<ContextConfig, "extra" | "neuronNames">> & {
  extra?: ContextExtra;
  neuronNames?: readonly string[];
};

/** The mode presets of ENGINE.md. */
export const MODE_PRESETS: Readonly<Record<AutomationMode, Pick<ContextConfig, "historyRounds" | "summaryThreshold" | "offloadThreshold">>> =
  Object.freeze({
    pilot: Object.freeze({ historyRounds: 100, summaryThreshold: null, offloadThreshold: null }),
    copilot: Object.freeze({ historyRounds: 20, summaryThreshold: 10, offloadThreshold: 50 }),
    navigator: Object.freeze({ historyRounds: 10, summaryThreshold: 5, offloadThreshold: 20 }),
  });

export const AUTOMATION_MODES: readonly AutomationMode[] = Object.freeze(["pilot", "copilot", "navigator"]);

/**
 * Builds a frozen config from a mode preset and overrides.
 * @example makeConfig("navigator", { extra: { token_budget: 8000 } })
 */
export function makeConfig(mode: AutomationMode = "copilot", overrides: ContextConfigOptions = {}): ContextConfig {
  if (!AUTOMATION_MODES.includes(mode)) throw new TypeError(`unknown automation mode '${String(mode)}': use pilot, copilot or navigator`);
  const preset = MODE_PRESETS[mode];
  const config: ContextConfig = {
    mode,
    historyRounds: overrides.historyRounds ?? preset.historyRounds,
    summaryThreshold: overrides.summaryThreshold === undefined ? preset.summaryThreshold : overrides.summaryThreshold,
    offloadThreshold: overrides.offloadThreshold === undefined ? preset.offloadThreshold : overrides.offloadThreshold,
    enableRetrieval: overrides.enableRetrieval ?? false,
    neuronNames: Object.freeze([...(overrides.neuronNames ?? [])]),
    extra: Object.freeze({ ...(overrides.extra ?? {}) }),
  };
  return Object.freeze(config);
}

/** A copy of `config` with some fields replaced; the result is frozen too. */
export function withConfig(config: ContextConfig, overrides: ContextConfigOptions): ContextConfig {
  return makeConfig(overrides.mode ?? config.mode, {
    historyRounds: config.historyRounds,
    summaryThreshold: config.summaryThreshold,
    offloadThreshold: config.offloadThreshold,
    enableRetrieval: config.enableRetrieval,
    neuronNames: config.neuronNames,
    ...overrides,
    extra: { ...config.extra, ...(overrides.extra ?? {}) },
  });
}
