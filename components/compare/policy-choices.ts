import { PRESET_IDS, PRESETS, type ComparedPolicy, type RequestPolicy } from "@/lib/context/light";
import type { SavedPolicy } from "@/lib/client";
import type { ModelEntry } from "@/lib/models";
import { policyOfPreset, policyOfSettings, settingsWithPolicy, type Policy } from "@/lib/policies";
import { resolveSettings, type Settings } from "@/lib/settings";

/** A policy a comparison slot can take. */
export interface PolicyChoice {
  id: string;
  label: string;
  group: "Current" | "Saved" | "Presets";
  /** What the replay runs: `saved` resolved against the catalogue. */
  policy: RequestPolicy;
  /** The choice as a policy of the settings: what applying or saving it writes. */
  saved: Policy;
}

/**
 * What can be compared: the current settings, the saved policies (over the
 * current recording fields) and the presets on the current model.
 */
export function policyChoices(settings: Settings, saved: readonly SavedPolicy[], catalogue: readonly ModelEntry[]): PolicyChoice[] {
  const choice = (id: string, label: string, group: PolicyChoice["group"], policy: Policy): PolicyChoice => ({
    id,
    label,
    group,
    policy: resolveSettings(settingsWithPolicy(settings, policy), catalogue).policy,
    saved: policy,
  });
  return [
    choice("current", "Current settings", "Current", policyOfSettings(settings)),
    ...saved.map((entry) => choice(`saved:${entry.id}`, entry.name, "Saved", entry.policy)),
    ...PRESET_IDS.filter((id) => id !== "raw").map((id) => choice(`preset:${id}`, PRESETS[id].label, "Presets", policyOfPreset(id, settings))),
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
