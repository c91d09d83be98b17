import type { StrategyProcessorKind } from "@/lib/context/light";
import type { ProcessorEntry, SettingsTuning } from "@/lib/settings";
import type { PolicyField } from "@/lib/policies";
import { formatNumber } from "@/components/pipeline/format";
import { PROCESSOR_INFO } from "@/components/pipeline/processor-info";
import { NULLABLE_FIELDS, NUMERIC_FIELDS, TUNING_LABELS } from "@/components/pipeline/settings-fields";

const OTHER_LABELS = {
  mode: "Mode",
  model: "Model",
  encoding: "Encoding",
  processors: "Processors",
  reloadTool: "Reload tool",
  tuning: "Strategy settings",
} as const;

/** What the settings panel calls a policy field. */
export function policyFieldLabel(field: PolicyField): string {
  if (field in NUMERIC_FIELDS) return NUMERIC_FIELDS[field as keyof typeof NUMERIC_FIELDS].label;
  if (field in NULLABLE_FIELDS) return NULLABLE_FIELDS[field as keyof typeof NULLABLE_FIELDS].label;
  return OTHER_LABELS[field as keyof typeof OTHER_LABELS] ?? field;
}

/** One strategy setting's value in words. */
function formatTuningValue(field: keyof typeof TUNING_LABELS, value: unknown): string {
  if (field === "fraction") return `${Math.round(Number(value) * 100)}% of the window`;
  if (Array.isArray(value)) return value.length === 0 ? "none" : value.join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return typeof value === "number" ? formatNumber(value) : `“${String(value)}”`;
}

/** The strategy settings in words, each strategy with the fields set (the others are the defaults). */
function formatTuning(tuning: SettingsTuning): string {
  const parts = Object.entries(tuning).map(([kind, fields]) => {
    const set = Object.entries(fields ?? {}).map(
      ([field, value]) =>
        `${TUNING_LABELS[field as keyof typeof TUNING_LABELS].toLowerCase()} ${formatTuningValue(field as keyof typeof TUNING_LABELS, value)}`,
    );
    return `${PROCESSOR_INFO[kind as StrategyProcessorKind].label}: ${set.length === 0 ? "defaults" : set.join(", ")}`;
  });
  return parts.length === 0 ? "defaults" : parts.join("; ");
}

/** A policy field's value in words: processors as the ones switched on, in order. */
export function formatPolicyValue(field: PolicyField, value: unknown): string {
  if (field === "tuning") return formatTuning(value as SettingsTuning);
  if (field === "processors") {
    const on = (value as ProcessorEntry[]).filter((entry) => entry.enabled).map((entry) => PROCESSOR_INFO[entry.kind].label);
    return on.length === 0 ? "none" : on.join(" → ");
  }
  if (value === null) return field in NULLABLE_FIELDS ? NULLABLE_FIELDS[field as keyof typeof NULLABLE_FIELDS].offLabel : "the model's";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  return String(value);
}
