import { describe, expect, it } from "vitest";
import { PRESET_IDS, presetPolicy } from "@/lib/context/light";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, settingsForMode } from "@/lib/settings";
import { diffPolicies, policyOfPreset, policyOfSettings, policySchema, readStoredPolicy, settingsWithPolicy } from "@/lib/policies";

describe("policies", () => {
  it("[PO-1] a policy is the settings without the recording fields, and validates with the settings' own rules", () => {
    const policy = policyOfSettings({ ...DEFAULT_SETTINGS, applyPipeline: true, artifactThreshold: 900 });
    expect(Object.keys(policy)).not.toContain("applyPipeline");
    expect(Object.keys(policy)).not.toContain("artifactThreshold");
    expect(policySchema.parse(policy)).toEqual(policy);
    const bad = policySchema.safeParse({ ...policy, historyRounds: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0].path).toEqual(["historyRounds"]);
    expect(policySchema.safeParse({ ...policy, applyPipeline: true }).success).toBe(false);
  });

  it("[PO-2] applying a policy replaces every policy field and keeps the recording fields", () => {
    const current = { ...settingsForMode("pilot"), applyPipeline: true, artifactThreshold: 900 };
    const policy = policyOfSettings(mergeSettings(settingsForMode("navigator"), { tokenBudget: 20_000, model: "gpt-4.1" }));
    const applied = settingsWithPolicy(current, policy);
    expect(applied).toMatchObject({ mode: "navigator", tokenBudget: 20_000, model: "gpt-4.1", applyPipeline: true, artifactThreshold: 900 });
    expect(policyOfSettings(applied)).toEqual(policy);
  });

  it("[PO-3] the diff names exactly the fields that differ, in the schema's order", () => {
    const a = policyOfSettings(DEFAULT_SETTINGS);
    expect(diffPolicies(a, a)).toEqual([]);
    const processors = [...a.processors].reverse().map((entry) => ({ ...entry, enabled: entry.kind !== "summarize" }));
    const b = { ...a, tokenBudget: 50_000, processors, historyRounds: 4 };
    const differences = diffPolicies(a, b);
    expect(differences.map((difference) => difference.field)).toEqual(["historyRounds", "tokenBudget", "processors"]);
    expect(differences[1]).toEqual({ field: "tokenBudget", from: null, to: 50_000 });
  });

  it("[PO-4] a stored policy is read back in the current shape, whatever it lacks taking its default", () => {
    const stored = { mode: "navigator", tokenBudget: 12_000, processors: [{ kind: "round_window", enabled: true }], unknown: 1 };
    const policy = readStoredPolicy(stored);
    expect(policySchema.parse(policy)).toEqual(policy);
    expect(policy).toMatchObject({ mode: "navigator", tokenBudget: 12_000, historyRounds: settingsForMode("navigator").historyRounds });
    expect(policy.processors[0]).toEqual({ kind: "round_window", enabled: true });
    expect(policy.processors.filter((entry) => entry.enabled)).toHaveLength(1);
  });

  it("[PO-8] every preset is a policy that validates, saves back as it is, and resolves to the preset on the settings' model", () => {
    const settings = { ...settingsForMode("pilot"), model: "gpt-4.1", applyPipeline: true };
    const resolved = resolveSettings(settings).policy;
    const model = { model: resolved.model, encoding: resolved.encoding, contextWindow: resolved.contextWindow, maxOutputTokens: resolved.maxOutputTokens };
    for (const id of PRESET_IDS) {
      const policy = policyOfPreset(id, settings);
      expect(policySchema.parse(policy)).toEqual(policy);
      expect(readStoredPolicy(JSON.parse(JSON.stringify(policy)))).toEqual(policy);
      const { mediaRule: _mediaRule, processors, ...applied } = resolveSettings(settingsWithPolicy(settings, policy)).policy;
      const { processors: presetProcessors, ...preset } = presetPolicy(id, model);
      expect(applied).toEqual(preset);
      expect(processors.filter((entry) => entry.enabled)).toEqual(presetProcessors.filter((entry) => entry.enabled));
    }
    expect(policyOfPreset("observation_masking", settings).tuning).toEqual({
      observation_masking: { keepObservations: 5, placeholder: "[earlier tool result omitted]" },
    });
  });
});
