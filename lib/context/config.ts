import { ContextError } from "./errors";
import { isEncodingName, type EncodingName } from "./tokens/encoding-names";
import { isMediaRule, type MediaRule } from "./tokens/media";

/** How much the engine does on its own: the automation modes (E-CFG1). */
export type AutomationMode = "pilot" | "copilot" | "navigator";

/** Settings the token budget reads from `extra` (E-B1, E-B4). */
export interface ContextExtra {
  token_budget?: number;
  token_encoding?: EncodingName;
  /** Whose rule counts images, audio and documents (E-T6). */
  token_media_rule?: MediaRule;
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

/** The mode presets (E-CFG1). */
export const MODE_PRESETS: Readonly<Record<AutomationMode, Pick<ContextConfig, "historyRounds" | "summaryThreshold" | "offloadThreshold">>> = Object.freeze({
  pilot: Object.freeze({ historyRounds: 100, summaryThreshold: null, offloadThreshold: null }),
  copilot: Object.freeze({ historyRounds: 20, summaryThreshold: 10, offloadThreshold: 50 }),
  navigator: Object.freeze({ historyRounds: 10, summaryThreshold: 5, offloadThreshold: 20 }),
});

export const AUTOMATION_MODES: readonly AutomationMode[] = Object.freeze(["pilot", "copilot", "navigator"]);

/**
 * Builds a frozen config from a mode preset and overrides. Every field is
 * checked (E-CFG4): a wrong one throws `ContextError` naming it.
 * @example makeConfig("navigator", { extra: { token_budget: 8000 } })
 */
export function makeConfig(mode: AutomationMode = "copilot", overrides: ContextConfigOptions = {}): ContextConfig {
  if (!AUTOMATION_MODES.includes(mode)) throw new ContextError(`unknown automation mode '${String(mode)}': use pilot, copilot or navigator`, { where: "mode" });
  checkOverrides(overrides);
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

const OVERRIDE_FIELDS: ReadonlySet<string> = new Set([
  "mode",
  "historyRounds",
  "summaryThreshold",
  "offloadThreshold",
  "enableRetrieval",
  "neuronNames",
  "extra",
]);

function refuse(field: string, expected: string, value: unknown): never {
  throw new ContextError(`config field '${field}' must be ${expected}, got ${typeof value === "string" ? `'${value}'` : String(value)}`, { where: field });
}

function checkCount(field: string, value: unknown, minimum: number, meaning: string, nullable = false): void {
  if (value === undefined || (nullable && value === null)) return;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum)
    refuse(field, `${nullable ? "null (disabled) or " : ""}an integer ≥ ${minimum} (${meaning})`, value);
}

/** CFG4: every field a caller may set, checked before anything is built. */
function checkOverrides(overrides: ContextConfigOptions): void {
  if (typeof overrides !== "object" || overrides === null) refuse("overrides", "an object", overrides);
  for (const key of Object.keys(overrides))
    if (!OVERRIDE_FIELDS.has(key)) refuse(key, `one of ${[...OVERRIDE_FIELDS].join(", ")} (no such field)`, (overrides as Record<string, unknown>)[key]);
  checkCount("historyRounds", overrides.historyRounds, 1, "rounds the window keeps, the last one included");
  checkCount("summaryThreshold", overrides.summaryThreshold, 0, "non-system messages before a summary", true);
  checkCount("offloadThreshold", overrides.offloadThreshold, 0, "non-system messages before offloading", true);
  if (overrides.enableRetrieval !== undefined && typeof overrides.enableRetrieval !== "boolean")
    refuse("enableRetrieval", "true or false", overrides.enableRetrieval);
  const names = overrides.neuronNames;
  if (names !== undefined && (!Array.isArray(names) || names.some((name) => typeof name !== "string" || name === "")))
    refuse("neuronNames", "a list of non-empty names", names);
  const extra = overrides.extra;
  if (extra === undefined) return;
  if (typeof extra !== "object" || extra === null || Array.isArray(extra)) refuse("extra", "an object", extra);
  checkCount("extra.token_budget", extra.token_budget, 0, "tokens the history may hold");
  checkCount("extra.context_window", extra.context_window, 0, "the model's input tokens; 0 for the default");
  checkCount("extra.max_output_tokens", extra.max_output_tokens, 0, "tokens reserved for the answer");
  if (extra.token_encoding !== undefined && !isEncodingName(extra.token_encoding))
    refuse("extra.token_encoding", "cl100k_base or o200k_base", extra.token_encoding);
  if (extra.token_media_rule !== undefined && !isMediaRule(extra.token_media_rule))
    refuse("extra.token_media_rule", "openai, anthropic or gemini", extra.token_media_rule);
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
