import type { ProcessorEntry } from "@/lib/settings";
import type { PolicyField } from "@/lib/policies";
import { formatNumber } from "@/components/pipeline/format";
import { PROCESSOR_INFO } from "@/components/pipeline/processor-info";
import { NULLABLE_FIELDS, NUMERIC_FIELDS } from "@/components/pipeline/settings-fields";

const OTHER_LABELS = { mode: "Mode", model: "Model", encoding: "Encoding", processors: "Processors", reloadTool: "Reload tool" } as const;

/** What the settings panel calls a policy field. */
export function policyFieldLabel(field: PolicyField): string {
  if (field in NUMERIC_FIELDS) return NUMERIC_FIELDS[field as keyof typeof NUMERIC_FIELDS].label;
  if (field in NULLABLE_FIELDS) return NULLABLE_FIELDS[field as keyof typeof NULLABLE_FIELDS].label;
  return OTHER_LABELS[field as keyof typeof OTHER_LABELS] ?? field;
}

/** A policy field's value in words: processors as the ones switched on, in order. */
export function formatPolicyValue(field: PolicyField, value: unknown): string {
  if (field === "processors") {
    const on = (value as ProcessorEntry[]).filter((entry) => entry.enabled).map((entry) => PROCESSOR_INFO[entry.kind].label);
    return on.length === 0 ? "none" : on.join(" → ");
  }
  if (value === null) return field in NULLABLE_FIELDS ? NULLABLE_FIELDS[field as keyof typeof NULLABLE_FIELDS].offLabel : "the model's";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? "on" : "off";
  return String(value);
}
