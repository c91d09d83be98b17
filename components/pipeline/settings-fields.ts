import { MODE_PRESETS } from "@/lib/context/light";
import type { PlaygroundSettings } from "@/lib/playground/settings";
import type { RangeBounds } from "./range-scale";

/** The numeric settings drawn as slider + number input. */
export type NumericSettingKey = "historyRounds" | "maxMessageSize" | "maxToolResultSize" | "tokenBudget" | "contextWindow" | "maxOutputTokens";
/** The thresholds that may be disabled (`null`). */
export type ThresholdSettingKey = "summaryThreshold" | "offloadThreshold";
/** The settings a mode preset decides. */
export type PresetSettingKey = "historyRounds" | ThresholdSettingKey;

export interface SettingField extends RangeBounds {
  label: string;
  unit: string;
  hint: string;
}

export const NUMERIC_FIELDS: Readonly<Record<NumericSettingKey, SettingField>> = {
  historyRounds: { label: "History rounds", unit: "rounds", min: 0, max: 200, step: 1, scale: "linear", hint: "Rounds the round window keeps, counted from the end." },
  maxMessageSize: { label: "Message offload size", unit: "chars", min: 100, max: 200_000, step: 1, scale: "log", hint: "A message longer than this is offloaded behind a handle, once the history is past the offload threshold." },
  maxToolResultSize: { label: "Tool-result size", unit: "chars", min: 100, max: 200_000, step: 1, scale: "log", hint: "A tool result longer than this is truncated (post_tool_call)." },
  tokenBudget: { label: "Token budget", unit: "tokens", min: 500, max: 200_000, step: 1, scale: "log", hint: "Hard limit for system + history; the oldest rounds go first." },
  contextWindow: { label: "Context window", unit: "tokens", min: 1_000, max: 2_000_000, step: 1, scale: "log", hint: "The model's input capacity." },
  maxOutputTokens: { label: "Max output tokens", unit: "tokens", min: 256, max: 131_072, step: 1, scale: "log", hint: "Reserved for the reply, never given to history." },
};

export const THRESHOLD_FIELDS: Readonly<Record<ThresholdSettingKey, SettingField & { fallback: number }>> = {
  summaryThreshold: { label: "Summary threshold", unit: "messages", min: 1, max: 1_000, step: 1, scale: "log", fallback: 10, hint: "Over this many non-system messages, the oldest rounds are summarised." },
  offloadThreshold: { label: "Offload threshold", unit: "messages", min: 1, max: 1_000, step: 1, scale: "log", fallback: 50, hint: "Over this many non-system messages, oversized messages are offloaded; disabled leaves the offloader out (CFG3)." },
};

const PRESET_LABELS: Readonly<Record<PresetSettingKey, string>> = {
  historyRounds: NUMERIC_FIELDS.historyRounds.label,
  summaryThreshold: THRESHOLD_FIELDS.summaryThreshold.label,
  offloadThreshold: THRESHOLD_FIELDS.offloadThreshold.label,
};

/** One setting moved away from the value its mode preset gives it. */
export interface PresetDifference {
  key: PresetSettingKey;
  label: string;
  preset: number | null;
  value: number | null;
}

/** The preset-decided settings whose value is not the current mode's preset value. */
export function presetDifferences(settings: PlaygroundSettings): PresetDifference[] {
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
