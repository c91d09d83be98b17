import { PRESET_IDS, PRESETS, presetPolicy, type ComparedPolicy, type RequestPolicy } from "@/lib/context/light";
import type { SavedPolicy } from "@/lib/client";
import type { ModelEntry } from "@/lib/models";
import { settingsWithPolicy } from "@/lib/policies";
import { resolveSettings, type Settings } from "@/lib/settings";

/** A policy a comparison slot can take. */
export interface PolicyChoice {
  id: string;
  label: string;
  group: "Current" | "Saved" | "Presets";
  policy: RequestPolicy;
}

/**
 * What can be compared: the current settings, the saved policies (over the
 * current recording fields) and the presets on the current model.
 */
export function policyChoices(settings: Settings, saved: readonly SavedPolicy[], catalogue: readonly ModelEntry[]): PolicyChoice[] {
  const current = resolveSettings(settings, catalogue).policy;
  const model = { model: current.model, encoding: current.encoding, contextWindow: current.contextWindow, maxOutputTokens: current.maxOutputTokens };
  return [
    { id: "current", label: "Current settings", group: "Current", policy: current },
    ...saved.map(
      (entry): PolicyChoice => ({
        id: `saved:${entry.id}`,
        label: entry.name,
        group: "Saved",
        policy: resolveSettings(settingsWithPolicy(settings, entry.policy), catalogue).policy,
      }),
    ),
    ...PRESET_IDS.filter((id) => id !== "raw").map(
      (id): PolicyChoice => ({ id: `preset:${id}`, label: PRESETS[id].label, group: "Presets", policy: presetPolicy(id, model) }),
    ),
  ];
}

/** The slots' choices as the comparison's policies: empty slots and repeats left out. */
export function comparedPolicies(slots: readonly string[], choices: readonly PolicyChoice[]): ComparedPolicy[] {
  const picked = [...new Set(slots.filter((slot) => slot !== ""))];
  return picked.flatMap((id) => {
    const choice = choices.find((entry) => entry.id === id);
    return choice ? [{ id: choice.id, label: choice.label, policy: choice.policy }] : [];
  });
}
