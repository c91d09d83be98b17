import { MODE_PRESETS } from "@/lib/context/light";
import type { Settings } from "@/lib/settings";
import type { RangeBounds } from "./range-scale";

/** The numeric settings drawn as slider + number input. */
export type NumericSettingKey = "historyRounds" | "maxMessageSize" | "maxToolResultSize" | "retrievedMemories";
/** The settings that may be `null`: thresholds off, no hard budget, or left to the model. */
export type NullableSettingKey = "summaryThreshold" | "offloadThreshold" | "tokenBudget" | "contextWindow" | "maxOutputTokens";
/** The settings a mode preset decides. */
export type PresetSettingKey = "historyRounds" | "summaryThreshold" | "offloadThreshold";

export interface SettingField extends RangeBounds {
  label: string;
  unit: string;
  hint: string;
}

export const NUMERIC_FIELDS: Readonly<Record<NumericSettingKey, SettingField>> = {
  historyRounds: {
    label: "History rounds",
    unit: "rounds",
    min: 1,
    max: 200,
    step: 1,
    scale: "linear",
    hint: "Rounds the round window keeps, counted from the end.",
  },
  maxMessageSize: {
    label: "Message offload size",
    unit: "chars",
    min: 100,
    max: 200_000,
    step: 1,
    scale: "log",
    hint: "A message longer than this is offloaded behind a handle, once the history is past the offload threshold.",
  },
  maxToolResultSize: {
    label: "Tool-result size",
    unit: "chars",
    min: 100,
    max: 200_000,
    step: 1,
    scale: "log",
    hint: "A tool result longer than this is truncated as it arrives.",
  },
  retrievedMemories: {
    label: "Retrieved memories",
    unit: "",
    min: 0,
    max: 10,
    step: 1,
    scale: "linear",
    hint: "Older summaries and stored tool results a request may carry, most relevant to the latest turn.",
  },
};

export const NULLABLE_FIELDS: Readonly<Record<NullableSettingKey, SettingField & { fallback: number; offLabel: string }>> = {
  summaryThreshold: {
    label: "Summary threshold",
    unit: "messages",
    min: 1,
    max: 1_000,
    step: 1,
    scale: "log",
    fallback: 10,
    offLabel: "disabled",
    hint: "Over this many non-system messages, the oldest rounds are summarised.",
  },
  offloadThreshold: {
    label: "Offload threshold",
    unit: "messages",
    min: 1,
    max: 1_000,
    step: 1,
    scale: "log",
    fallback: 50,
    offLabel: "disabled",
    hint: "Over this many non-system messages, oversized messages are offloaded; disabled, nothing is offloaded.",
  },
  tokenBudget: {
    label: "Token budget",
    unit: "tokens",
    min: 100,
    max: 2_000_000,
    step: 1,
    scale: "log",
    fallback: 100_000,
    offLabel: "none",
    hint: "Hard limit on everything sent (messages and tool definitions); the oldest rounds go first. None: the window is the limit.",
  },
  contextWindow: {
    label: "Context window",
    unit: "tokens",
    min: 1_000,
    max: 10_000_000,
    step: 1,
    scale: "log",
    fallback: 128_000,
    offLabel: "from model",
    hint: "The model's input capacity.",
  },
  maxOutputTokens: {
    label: "Max output tokens",
    unit: "tokens",
    min: 1,
    max: 1_000_000,
    step: 1,
    scale: "log",
    fallback: 4_096,
    offLabel: "from model",
    hint: "Reserved for the reply and sent as its limit; never given to history.",
  },
};

const PRESET_LABELS: Readonly<Record<PresetSettingKey, string>> = {
  historyRounds: NUMERIC_FIELDS.historyRounds.label,
  summaryThreshold: NULLABLE_FIELDS.summaryThreshold.label,
  offloadThreshold: NULLABLE_FIELDS.offloadThreshold.label,
};

/** One setting moved away from the value its mode preset gives it. */
export interface PresetDifference {
  key: PresetSettingKey;
  label: string;
  preset: number | null;
  value: number | null;
}

/** The preset-decided settings whose value is not the current mode's preset value. */
export function presetDifferences(settings: Settings): PresetDifference[] {
  const preset = MODE_PRESETS[settings.mode];
  return (Object.keys(PRESET_LABELS) as PresetSettingKey[])
    .filter((key) => settings[key] !== preset[key])
    .map((key) => ({ key, label: PRESET_LABELS[key], preset: preset[key], value: settings[key] }));
}

/** "20 rounds · summary at 10 · offload at 50": what a preset sets. */
export function describePreset(values: { historyRounds: number; summaryThreshold: number | null; offloadThreshold: number | null }): string {
  const threshold = (value: number | null) => (value === null ? "off" : `at ${value}`);
  return `${values.historyRounds} rounds · summary ${threshold(values.summaryThreshold)} · offload ${threshold(values.offloadThreshold)}`;
}

/** What the settings panel calls each field of the strategy processors' settings. */
export const TUNING_LABELS = {
  triggerTokens: "Clear past",
  keepToolUses: "Tool uses kept",
  clearAtLeastTokens: "Clear at least",
  excludeTools: "Never clear these tools",
  clearToolInputs: "Clear the calls' inputs too",
  placeholder: "Placeholder",
  keepObservations: "Observations kept",
  fraction: "Compact at",
  keepRounds: "Recent rounds kept",
  maxTokens: "Window",
} as const;
