import { PRESETS, sameJson, type PresetId } from "@/lib/context/light";
import { completeProcessors, normalizeSettings, type Settings } from "@/lib/settings";
import { POLICY_FIELDS, type Policy, type PolicyField } from "./schema";

/** The policy part of settings (PO-1). */
export function policyOfSettings(settings: Settings): Policy {
  const policy: Record<string, unknown> = {};
  for (const field of POLICY_FIELDS) policy[field] = structuredClone(settings[field]);
  return policy as Policy;
}

/** Settings with a policy applied (PO-2): every policy field replaced, the recording fields kept. */
export function settingsWithPolicy(settings: Settings, policy: Policy): Settings {
  return { ...settings, ...structuredClone(policy) };
}

/** One field two policies disagree on. */
export interface PolicyDifference {
  field: PolicyField;
  from: Policy[PolicyField];
  to: Policy[PolicyField];
}

/**
 * The fields where `to` differs from `from`, in the settings schema's order
 * (PO-3). Processors differ when their order or a switch differs.
 */
export function diffPolicies(from: Policy, to: Policy): PolicyDifference[] {
  return POLICY_FIELDS.filter((field) => !sameJson(from[field], to[field])).map((field) => ({ field, from: from[field], to: to[field] }));
}

/** A saved policy read back (PO-4): normalised as stored settings are (ST-2), so one saved before a setting existed takes its default. */
export function readStoredPolicy(stored: unknown): Policy {
  return policyOfSettings(normalizeSettings(stored).settings);
}

/**
 * A named preset as a policy over `settings` (PO-8): the preset's mode,
 * thresholds, sizes, processors and strategy settings, with the settings'
 * model, window, reserve and encoding kept, so it saves and applies like any
 * policy and resolves to what a comparison ran.
 */
export function policyOfPreset(id: PresetId, settings: Settings): Policy {
  const { policy } = PRESETS[id];
  return policyOfSettings({
    ...settings,
    mode: policy.mode,
    historyRounds: policy.historyRounds,
    summaryThreshold: policy.summaryThreshold,
    offloadThreshold: policy.offloadThreshold,
    maxMessageSize: policy.maxMessageSize,
    maxToolResultSize: policy.maxToolResultSize,
    processors: completeProcessors(policy.processors),
    tokenBudget: policy.tokenBudget,
    reloadTool: policy.reloadTool,
    retrievedMemories: policy.retrievedMemories,
    tuning: structuredClone(policy.tuning ?? {}) as Settings["tuning"],
  });
}
