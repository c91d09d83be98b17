import type { EncodingName, RequestPolicy } from "@/lib/context/light";
import { BUILT_IN_MODELS, findModel, type ModelEntry, type ModelMatch } from "@/lib/models";
import { mergeSettings } from "./merge";
import { normalizeSettings } from "./normalize";
import type { Settings, SettingsChanges } from "./schema";

/** The reply reserve when the settings leave it to the model: its output limit, at most this and at most a quarter of its window. */
export const DEFAULT_RESERVE_CAP = 8_192;

/** Where a resolved value came from. */
export type ValueSource = "settings" | "model";

/** Stored settings made concrete with the model catalogue. */
export interface ResolvedSettings {
  policy: RequestPolicy;
  model: ModelMatch;
  /** Characters a recorded tool result may hold before it becomes an artifact. */
  artifactThreshold: number;
  /** False when counts approximate the model's tokenizer (another provider's, or an encoding chosen by hand). */
  exact: boolean;
  /** Why counts are approximate, when they are. */
  approximation?: string;
  sources: { contextWindow: ValueSource; maxOutputTokens: ValueSource; encoding: ValueSource };
}

/** The reserve a model gets when the settings do not set one: a small window keeps most of itself for history. */
export function defaultReserve(entry: Pick<ModelEntry, "maxOutputTokens" | "contextWindow">): number {
  return Math.max(1, Math.min(entry.maxOutputTokens, DEFAULT_RESERVE_CAP, Math.floor(entry.contextWindow / 4)));
}

function approximationOf(settings: Settings, entry: ModelEntry, encoding: EncodingName): string | undefined {
  if (settings.encoding !== null && (settings.encoding !== entry.tokenizer.encoding || !entry.tokenizer.exact)) {
    return `counted with ${encoding}, chosen by hand; ${entry.tokenizer.exact ? `${entry.id} uses ${entry.tokenizer.encoding}` : (entry.tokenizer.note ?? "the model's tokenizer differs")}`;
  }
  return entry.tokenizer.exact ? undefined : (entry.tokenizer.note ?? `counted with ${encoding}, an approximation`);
}

/**
 * The request policy stored settings stand for: the model's window, reserve
 * and encoding where the settings leave them to the model (`null`).
 */
export function resolveSettings(settings: Settings, catalogue: readonly ModelEntry[] = BUILT_IN_MODELS): ResolvedSettings {
  const model = findModel(settings.model, catalogue);
  const { entry } = model;
  const encoding = settings.encoding ?? entry.tokenizer.encoding;
  const approximation = approximationOf(settings, entry, encoding);
  return {
    policy: {
      mode: settings.mode,
      historyRounds: settings.historyRounds,
      summaryThreshold: settings.summaryThreshold,
      offloadThreshold: settings.offloadThreshold,
      maxMessageSize: settings.maxMessageSize,
      maxToolResultSize: settings.maxToolResultSize,
      processors: settings.processors,
      model: settings.model,
      encoding,
      mediaRule: entry.mediaRule,
      contextWindow: settings.contextWindow ?? entry.contextWindow,
      maxOutputTokens: settings.maxOutputTokens ?? defaultReserve(entry),
      tokenBudget: settings.tokenBudget,
      reloadTool: settings.reloadTool,
      retrievedMemories: settings.retrievedMemories,
      ...(Object.keys(settings.tuning).length > 0 ? { tuning: structuredClone(settings.tuning) } : {}),
    },
    model,
    artifactThreshold: settings.artifactThreshold ?? settings.maxToolResultSize,
    exact: approximation === undefined,
    ...(approximation ? { approximation } : {}),
    sources: {
      contextWindow: settings.contextWindow === null ? "model" : "settings",
      maxOutputTokens: settings.maxOutputTokens === null ? "model" : "settings",
      encoding: settings.encoding === null ? "model" : "settings",
    },
  };
}

/**
 * ST-6: a stored settings row as every reader resolves it: normalised (ST-2),
 * a call's overrides merged over it (ST-3), resolved against the catalogue (ST-4).
 */
export function resolveStoredSettings(stored: unknown, catalogue: readonly ModelEntry[] = BUILT_IN_MODELS, overrides?: SettingsChanges): ResolvedSettings {
  const { settings } = normalizeSettings(stored);
  return resolveSettings(overrides ? mergeSettings(settings, overrides) : settings, catalogue);
}
