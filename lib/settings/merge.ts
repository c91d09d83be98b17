import { MODE_PRESETS } from "@/lib/context/light";
import { PRESET_FIELDS } from "./defaults";
import { completeProcessors } from "./processors";
import type { Settings, SettingsChanges } from "./schema";

/**
 * Applies a validated change to settings: fields it leaves out stay, `null`
 * clears a field (back to the model's value, or off), a new `mode` brings its
 * preset's rounds and thresholds unless the change sets them too, and a
 * processor list is completed with the ones it lacks, switched off.
 */
export function mergeSettings(current: Settings, changes: SettingsChanges): Settings {
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as SettingsChanges;
  const merged: Settings = { ...current, ...defined } as Settings;
  if (defined.mode !== undefined && defined.mode !== current.mode) {
    const preset = MODE_PRESETS[defined.mode];
    for (const field of PRESET_FIELDS) if (defined[field] === undefined) (merged as Record<string, unknown>)[field] = preset[field];
  }
  if (defined.processors !== undefined) merged.processors = completeProcessors(defined.processors);
  return merged;
}

/** The settings with another model: its window, reply reserve and encoding come from the catalogue again (ST-4). */
export function settingsWithModel(current: Settings, model: string): Settings {
  return mergeSettings(current, { model, contextWindow: null, maxOutputTokens: null, encoding: null });
}
