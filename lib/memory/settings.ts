import "server-only";
import { AUTOMATION_MODES, DEFAULT_PROCESSOR_ORDER, isEncodingName, type AutomationMode, type ProcessorSpec } from "@/lib/context";
import type { ConversationRecord, JsonValue } from "@/lib/db";
import { DEFAULT_SETTINGS, settingsForMode, type PlaygroundSettings } from "@/lib/playground/settings";

/** The engine settings a conversation stores, plus where tool results become artifacts. */
export interface MemorySettings extends PlaygroundSettings {
  /** Characters (code points) a tool result may hold before it is stored as an artifact; default `maxToolResultSize`. */
  artifactThreshold: number;
}

type Check = (value: JsonValue | undefined) => boolean;

const integerFrom = (minimum: number): Check => (value) => typeof value === "number" && Number.isSafeInteger(value) && value >= minimum;
const positive = integerFrom(1);
// 0 is meaningful for counts the engine reads: 0 history rounds keeps only the incomplete round, a 0 threshold always fires.
const count = integerFrom(0);
const threshold: Check = (value) => value === null || count(value);
const nonEmptyString: Check = (value) => typeof value === "string" && value.trim().length > 0;
const PROCESSOR_KINDS: ReadonlySet<string> = new Set(DEFAULT_PROCESSOR_ORDER);
const processors: Check = (value) =>
  Array.isArray(value) &&
  value.every(
    (entry) =>
      typeof entry === "object" && entry !== null && !Array.isArray(entry) && PROCESSOR_KINDS.has(String(entry.kind)) && typeof entry.enabled === "boolean",
  );

// One check per stored field; a field that fails keeps the mode preset's (or the default) value.
const CHECKS: { readonly [K in Exclude<keyof MemorySettings, "mode">]-?: Check } = {
  historyRounds: count,
  summaryThreshold: threshold,
  offloadThreshold: threshold,
  maxMessageSize: positive,
  maxToolResultSize: positive,
  tokenBudget: positive,
  contextWindow: positive,
  maxOutputTokens: integerFrom(0),
  model: nonEmptyString,
  encoding: (value) => typeof value === "string" && isEncodingName(value),
  processors,
  artifactThreshold: positive,
};

/**
 * A conversation's stored settings over the defaults, field by field: the
 * stored `mode` picks the preset (so a navigator conversation without
 * thresholds gets navigator's), each valid stored field overrides it, and a
 * field of the wrong type or range is ignored. Never throws.
 */
export function settingsOfConversation(conversation: Pick<ConversationRecord, "settings">): MemorySettings {
  const stored = isObject(conversation.settings) ? conversation.settings : {};
  const mode = AUTOMATION_MODES.includes(stored.mode as AutomationMode) ? (stored.mode as AutomationMode) : DEFAULT_SETTINGS.mode;
  const base: PlaygroundSettings = settingsForMode(mode, DEFAULT_SETTINGS);
  const settings: Record<string, unknown> = { ...base };
  for (const [key, check] of Object.entries(CHECKS) as [keyof typeof CHECKS, Check][]) {
    if (Object.hasOwn(stored, key) && check(stored[key])) settings[key] = key === "processors" ? copyProcessors(stored[key]) : stored[key];
  }
  const result = settings as unknown as MemorySettings;
  result.artifactThreshold ??= result.maxToolResultSize;
  return result;
}

/** Settings with per-call overrides on top; `artifactThreshold` follows an overridden `maxToolResultSize` unless set itself. */
export function withOverrides(settings: MemorySettings, overrides: Partial<MemorySettings> | undefined): MemorySettings {
  if (!overrides) return settings;
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)) as Partial<MemorySettings>;
  const merged = { ...settings, ...defined };
  if (defined.artifactThreshold === undefined && defined.maxToolResultSize !== undefined && settings.artifactThreshold === settings.maxToolResultSize) {
    merged.artifactThreshold = defined.maxToolResultSize;
  }
  return merged;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function copyProcessors(value: JsonValue | undefined): ProcessorSpec[] {
  return (value as { kind: ProcessorSpec["kind"]; enabled: boolean }[]).map(({ kind, enabled }) => ({ kind, enabled }));
}
