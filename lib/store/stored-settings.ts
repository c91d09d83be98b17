import { AUTOMATION_MODES, DEFAULT_PROCESSOR_ORDER, isEncodingName, type AutomationMode, type ProcessorKind, type ProcessorSpec } from "@/lib/context/light";
import { DEFAULT_SETTINGS, settingsForMode, type PlaygroundSettings } from "@/lib/playground/settings";

const NUMBER_KEYS = ["historyRounds", "maxMessageSize", "maxToolResultSize", "tokenBudget", "contextWindow", "maxOutputTokens"] as const;
const NULLABLE_KEYS = ["summaryThreshold", "offloadThreshold"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function readProcessors(value: unknown): ProcessorSpec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const known = new Set<string>(DEFAULT_PROCESSOR_ORDER);
  const seen = new Set<ProcessorKind>();
  const processors: ProcessorSpec[] = [];
  for (const entry of value) {
    if (!isRecord(entry) || typeof entry.kind !== "string" || !known.has(entry.kind)) continue;
    const kind = entry.kind as ProcessorKind;
    if (seen.has(kind)) continue;
    seen.add(kind);
    processors.push({ kind, enabled: entry.enabled !== false });
  }
  // A processor added to the engine after the settings were saved joins at its default place's end, enabled.
  for (const kind of DEFAULT_PROCESSOR_ORDER) if (!seen.has(kind)) processors.push({ kind, enabled: true });
  return processors;
}

/**
 * The playground settings a conversation stored (`PATCH /api/conversations/[id]`
 * `{ settings }`). Unknown keys and values of the wrong type fall back to the
 * mode's defaults, so settings saved by an older build still open.
 */
export function readStoredSettings(stored: unknown): PlaygroundSettings {
  if (!isRecord(stored) || Object.keys(stored).length === 0) return DEFAULT_SETTINGS;
  const mode: AutomationMode = AUTOMATION_MODES.includes(stored.mode as AutomationMode) ? (stored.mode as AutomationMode) : DEFAULT_SETTINGS.mode;
  const settings: PlaygroundSettings = settingsForMode(mode);
  for (const key of NUMBER_KEYS) if (isCount(stored[key])) settings[key] = stored[key];
  for (const key of NULLABLE_KEYS) if (stored[key] === null || isCount(stored[key])) settings[key] = stored[key] as number | null;
  if (typeof stored.model === "string" && stored.model.trim() !== "") settings.model = stored.model;
  if (isEncodingName(stored.encoding)) settings.encoding = stored.encoding;
  settings.processors = readProcessors(stored.processors) ?? settings.processors;
  return settings;
}

/** Settings as plain JSON for the API (no `undefined` fields). */
export function toStoredSettings(settings: PlaygroundSettings): Record<string, unknown> {
  return JSON.parse(JSON.stringify(settings)) as Record<string, unknown>;
}
