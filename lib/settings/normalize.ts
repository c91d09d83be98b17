import { AUTOMATION_MODES, type AutomationMode, type ProcessorSpec } from "@/lib/context/light";
import { settingsForMode } from "./defaults";
import { completeProcessors } from "./processors";
import { processorTuningSchema, settingsSchema, type Settings, type SettingsTuning } from "./schema";

/** A stored field normalisation changed, and why. */
export interface SettingsRepair {
  field: string;
  message: string;
}

export interface NormalizedSettings {
  settings: Settings;
  /** Empty for settings already in the current shape. */
  repairs: SettingsRepair[];
}

type Field = Exclude<keyof Settings, "mode">;
const FIELDS = Object.keys(settingsSchema.shape).filter((field) => field !== "mode") as Field[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keeps known processors once each, in their stored order, then completes the list (switched off). */
function repairProcessors(value: unknown, repairs: SettingsRepair[]): ProcessorSpec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const entry = settingsSchema.shape.processors.element;
  const seen = new Set<string>();
  const kept: ProcessorSpec[] = [];
  value.forEach((item, index) => {
    const parsed = entry.safeParse(item);
    if (!parsed.success) repairs.push({ field: `processors[${index}]`, message: "not a known processor: left out" });
    else if (seen.has(parsed.data.kind))
      repairs.push({ field: `processors[${index}]`, message: `'${parsed.data.kind}' was listed twice: the first place kept` });
    else {
      seen.add(parsed.data.kind);
      kept.push(parsed.data);
    }
  });
  return completeProcessors(kept);
}

/** Keeps each strategy's valid settings; an invalid or unknown strategy is left out (its defaults apply). */
function repairTuning(value: unknown, repairs: SettingsRepair[]): SettingsTuning {
  if (!isRecord(value)) {
    repairs.push({ field: "tuning", message: "not an object: the strategies' defaults apply" });
    return {};
  }
  const tuning: Record<string, unknown> = {};
  for (const [kind, settings] of Object.entries(value)) {
    const schema = processorTuningSchema.shape[kind as keyof SettingsTuning];
    const parsed = schema?.safeParse(settings);
    if (!schema) repairs.push({ field: `tuning.${kind}`, message: "not a strategy processor: dropped" });
    else if (!parsed?.success)
      repairs.push({ field: `tuning.${kind}`, message: `not valid (${parsed?.error.issues[0]?.message ?? "invalid"}): its defaults apply` });
    else if (parsed.data !== undefined) tuning[kind] = parsed.data;
  }
  return tuning as SettingsTuning;
}

/**
 * Settings written before `reloadTool` existed stored the old fixed window
 * and reply reserve for every model; those values now follow the model.
 */
function legacyValue(field: Field, value: unknown, stored: Record<string, unknown>): unknown {
  const legacy = !("reloadTool" in stored);
  if (legacy && field === "contextWindow" && value === 128_000) return null;
  if (legacy && field === "maxOutputTokens" && value === 4_096) return null;
  if (field === "tokenBudget" && value === 0) return null;
  return value;
}

/**
 * A stored settings row in the current shape, never throwing: the stored mode
 * picks the preset, each valid stored field overrides it, anything invalid or
 * unknown falls back to the preset or default and is reported as a repair.
 * Every reader of stored settings goes through here.
 */
export function normalizeSettings(stored: unknown): NormalizedSettings {
  const repairs: SettingsRepair[] = [];
  const record = isRecord(stored) ? stored : {};
  if (stored !== undefined && stored !== null && !isRecord(stored)) repairs.push({ field: "", message: "settings were not an object: the defaults apply" });
  const storedMode = record.mode;
  const mode: AutomationMode = AUTOMATION_MODES.includes(storedMode as AutomationMode) ? (storedMode as AutomationMode) : "copilot";
  if (storedMode !== undefined && storedMode !== mode) repairs.push({ field: "mode", message: `unknown mode ${JSON.stringify(storedMode)}: copilot applies` });
  const settings: Record<string, unknown> = settingsForMode(mode);
  for (const field of FIELDS) {
    if (!(field in record)) continue;
    if (field === "processors") {
      const processors = repairProcessors(record.processors, repairs);
      if (processors) settings.processors = processors;
      else repairs.push({ field, message: "not a list of processors: the default pipeline applies" });
      continue;
    }
    if (field === "tuning") {
      settings.tuning = repairTuning(record.tuning, repairs);
      continue;
    }
    const value = legacyValue(field, record[field], record);
    const parsed = settingsSchema.shape[field].safeParse(value);
    if (parsed.success) settings[field] = parsed.data;
    else
      repairs.push({ field, message: `${JSON.stringify(record[field])} is not valid (${parsed.error.issues[0]?.message ?? "invalid"}): the default applies` });
  }
  for (const key of Object.keys(record)) if (key !== "mode" && !FIELDS.includes(key as Field)) repairs.push({ field: key, message: "not a setting: dropped" });
  return { settings: settings as Settings, repairs };
}
