import { defaultPipelineSpec, MODE_PRESETS, type AutomationMode } from "@/lib/context/light";
import { completeProcessors } from "./processors";
import type { Settings } from "./schema";

export const DEFAULT_MODEL = "gpt-4o";

/** The fields a mode preset decides. */
export type PresetField = "historyRounds" | "summaryThreshold" | "offloadThreshold";
export const PRESET_FIELDS: readonly PresetField[] = ["historyRounds", "summaryThreshold", "offloadThreshold"];

/**
 * A mode's settings: its preset's rounds and thresholds over `base` (or the
 * defaults). Sizes, budget, model and processors are the mode's business only
 * when `base` does not say.
 */
export function settingsForMode(mode: AutomationMode, base: Partial<Settings> = {}): Settings {
  const preset = MODE_PRESETS[mode];
  return {
    maxMessageSize: 10_000,
    maxToolResultSize: 5_000,
    artifactThreshold: null,
    tokenBudget: null,
    model: DEFAULT_MODEL,
    contextWindow: null,
    maxOutputTokens: null,
    encoding: null,
    processors: completeProcessors(defaultPipelineSpec()),
    tuning: {},
    applyPipeline: false,
    reloadTool: true,
    retrievedMemories: 3,
    ...base,
    mode,
    historyRounds: preset.historyRounds,
    summaryThreshold: preset.summaryThreshold,
    offloadThreshold: preset.offloadThreshold,
  };
}

/** A new conversation's settings. */
export const DEFAULT_SETTINGS: Settings = Object.freeze(settingsForMode("copilot")) as Settings;
