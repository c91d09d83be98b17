import { describe, expect, expectTypeOf, it } from "vitest";
import type * as z from "zod";
import { PRESETS, PROCESSOR_KINDS, STRATEGY_DEFAULTS, type RequestPolicy } from "@/lib/context/light";
import { BUILT_IN_MODELS, type ModelEntry } from "@/lib/models";
import {
  DEFAULT_SETTINGS,
  mergeSettings,
  normalizeSettings,
  requestPolicySchema,
  resolveSettings,
  resolveStoredSettings,
  settingsChangesSchema,
  settingsForMode,
  settingsSchema,
} from ".";

const issuesOf = (value: unknown) => {
  const result = settingsChangesSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("settings schema", () => {
  it("[ST-1] refuses duplicates, unknown processors, a budget of 0 and unknown fields, naming the field", () => {
    expect(
      issuesOf({
        processors: [
          { kind: "round_window", enabled: true },
          { kind: "round_window", enabled: false },
        ],
      }),
    ).toEqual(["processors.1.kind: 'round_window' is listed twice: each processor appears once"]);
    expect(issuesOf({ processors: [{ kind: "shredder", enabled: true }] })[0]).toMatch(/^processors\.0\.kind: unknown processor/);
    expect(issuesOf({ tokenBudget: 0 })).toEqual(["tokenBudget: must be at least 1"]);
    expect(issuesOf({ colour: "blue" })[0]).toMatch(/colour/);
    expect(issuesOf({ historyRounds: 2.5 })).toEqual(["historyRounds: expected a whole number"]);
  });

  it("[ST-1] the defaults are valid settings", () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
    for (const mode of ["pilot", "copilot", "navigator"] as const) expect(settingsSchema.safeParse(settingsForMode(mode)).success).toBe(true);
  });
});

describe("normalizeSettings", () => {
  it("[ST-2] leaves settings in the current shape as they are", () => {
    expect(normalizeSettings(DEFAULT_SETTINGS)).toEqual({ settings: DEFAULT_SETTINGS, repairs: [] });
  });

  it("[ST-2] an old row: duplicates dropped, missing processors appended switched off, the old fixed window and reserve follow the model, Auto encoding stays auto", () => {
    const old = {
      mode: "navigator",
      historyRounds: 4,
      tokenBudget: 0,
      contextWindow: 128_000,
      maxOutputTokens: 4_096,
      model: "gpt-4.1",
      processors: [
        { kind: "round_window", enabled: true },
        { kind: "round_window", enabled: false },
        { kind: "token_budget", enabled: true },
      ],
      applyPipeline: true,
    };
    const { settings, repairs } = normalizeSettings(old);
    expect(settings).toMatchObject({
      mode: "navigator",
      historyRounds: 4,
      summaryThreshold: 5,
      tokenBudget: null,
      contextWindow: null,
      maxOutputTokens: null,
      encoding: null,
      model: "gpt-4.1",
      applyPipeline: true,
    });
    expect(settings.processors.map((entry) => entry.kind)).toEqual([
      "round_window",
      "token_budget",
      ...PROCESSOR_KINDS.filter((kind) => kind !== "round_window" && kind !== "token_budget"),
    ]);
    expect(settings.processors.filter((entry) => entry.enabled).map((entry) => entry.kind)).toEqual(["round_window", "token_budget"]);
    expect(repairs).toEqual([{ field: "processors[1]", message: "'round_window' was listed twice: the first place kept" }]);
  });

  it("[ST-2] invalid fields fall back to the mode's preset or the default, each reported; never throws", () => {
    const { settings, repairs } = normalizeSettings({ mode: "navigator", historyRounds: -3, summaryThreshold: "five", encoding: "p50k", extra: 1 });
    expect(settings).toEqual(settingsForMode("navigator"));
    expect(repairs.map((repair) => repair.field)).toEqual(["historyRounds", "summaryThreshold", "encoding", "extra"]);
    expect(normalizeSettings("nonsense").settings).toEqual(DEFAULT_SETTINGS);
    expect(normalizeSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, repairs: [] });
  });
});

describe("mergeSettings", () => {
  it("[ST-3] a new mode brings its preset unless the change sets the field; null clears", () => {
    const merged = mergeSettings({ ...DEFAULT_SETTINGS, contextWindow: 50_000 }, { mode: "navigator", summaryThreshold: 7, contextWindow: null });
    expect(merged).toMatchObject({ mode: "navigator", historyRounds: 10, summaryThreshold: 7, offloadThreshold: 20, contextWindow: null });
  });

  it("[ST-3] a partial processor list is completed with the rest switched off", () => {
    const merged = mergeSettings(DEFAULT_SETTINGS, { processors: [{ kind: "token_budget", enabled: true }] });
    expect(merged.processors[0]).toEqual({ kind: "token_budget", enabled: true });
    expect(merged.processors).toHaveLength(PROCESSOR_KINDS.length);
    expect(merged.processors.slice(1).every((entry) => !entry.enabled)).toBe(true);
  });
});

describe("resolveSettings", () => {
  it("[ST-4] window, reserve and encoding follow the model unless set", () => {
    const gpt41 = resolveSettings({ ...DEFAULT_SETTINGS, model: "gpt-4.1-2025-04-14" });
    expect(gpt41.policy).toMatchObject({ contextWindow: 1_047_576, maxOutputTokens: 8_192, encoding: "o200k_base" });
    expect(gpt41).toMatchObject({ exact: true, sources: { contextWindow: "model", maxOutputTokens: "model", encoding: "model" } });
    const set = resolveSettings({ ...DEFAULT_SETTINGS, model: "gpt-4", contextWindow: 6_000, maxOutputTokens: 500 });
    expect(set.policy).toMatchObject({ contextWindow: 6_000, maxOutputTokens: 500, encoding: "cl100k_base" });
  });

  it("[ST-4] images, audio and documents count by the model's provider's rule", () => {
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "gpt-4o" }).policy.mediaRule).toBe("openai");
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "claude-sonnet-4-5-20250929" }).policy.mediaRule).toBe("anthropic");
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "gemini-2.5-pro" }).policy.mediaRule).toBe("gemini");
  });

  it("[ST-4] counts for Claude, Gemini, unknown models and hand-picked encodings are labelled approximate", () => {
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "claude-sonnet-4-5-20250929" })).toMatchObject({
      exact: false,
      approximation: expect.stringContaining("Claude"),
    });
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "gemini-2.5-pro" }).exact).toBe(false);
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "my-local-model" })).toMatchObject({ exact: false, model: { match: "fallback" } });
    expect(resolveSettings({ ...DEFAULT_SETTINGS, model: "gpt-4o", encoding: "cl100k_base" })).toMatchObject({
      exact: false,
      approximation: expect.stringContaining("chosen by hand"),
    });
  });

  it("[ST-4] a user's catalogue entry wins over the built-in one", () => {
    const custom: ModelEntry = { ...BUILT_IN_MODELS.find((entry) => entry.id === "gpt-4o")!, contextWindow: 64_000, origin: "custom" };
    const resolved = resolveSettings({ ...DEFAULT_SETTINGS, model: "gpt-4o" }, [...BUILT_IN_MODELS.filter((entry) => entry.id !== "gpt-4o"), custom]);
    expect(resolved.policy.contextWindow).toBe(64_000);
  });
});

describe("strategy processors in settings", () => {
  it("[ST-5] the strategies are settings: listed after the default pipeline, switched off; a tuned strategy validates and is refused with its path when wrong", () => {
    expect(DEFAULT_SETTINGS.processors.map((entry) => entry.kind)).toEqual(PROCESSOR_KINDS);
    expect(DEFAULT_SETTINGS.processors.filter((entry) => !entry.enabled).map((entry) => entry.kind)).toEqual([
      "clear_tool_uses",
      "observation_masking",
      "auto_compact",
      "token_window",
    ]);
    expect(DEFAULT_SETTINGS.tuning).toEqual({});
    const change = { processors: [{ kind: "observation_masking", enabled: true }], tuning: { observation_masking: { keepObservations: 2 } } };
    expect(settingsChangesSchema.parse(change)).toEqual(change);
    const wrong = settingsChangesSchema.safeParse({ tuning: { auto_compact: { fraction: 1.5 } } });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0].path).toEqual(["tuning", "auto_compact", "fraction"]);
    expect(settingsChangesSchema.safeParse({ tuning: { summarize: {} } }).success).toBe(false);
  });

  it("[ST-5] a stored tuning keeps each valid strategy and drops an invalid or unknown one with a repair", () => {
    const { settings, repairs } = normalizeSettings({
      ...DEFAULT_SETTINGS,
      tuning: { observation_masking: { keepObservations: 2 }, clear_tool_uses: { keepToolUses: -1 }, summarize: { x: 1 } },
    });
    expect(settings.tuning).toEqual({ observation_masking: { keepObservations: 2 } });
    expect(repairs.map((repair) => repair.field)).toEqual(["tuning.clear_tool_uses", "tuning.summarize"]);
    expect(normalizeSettings({ ...DEFAULT_SETTINGS, tuning: "off" }).settings.tuning).toEqual({});
    const { tuning: _tuning, ...older } = DEFAULT_SETTINGS;
    expect(normalizeSettings(older)).toEqual({ settings: DEFAULT_SETTINGS, repairs: [] });
  });

  it("[ST-5] resolving passes the strategies' settings to the request policy, and none when nothing is tuned", () => {
    expect(resolveSettings(DEFAULT_SETTINGS).policy).not.toHaveProperty("tuning");
    const tuning = { clear_tool_uses: { triggerTokens: 2_000, excludeTools: ["search"] } };
    const resolved = resolveSettings({ ...DEFAULT_SETTINGS, tuning }).policy;
    expect(resolved.tuning).toEqual(tuning);
    expect({ ...STRATEGY_DEFAULTS.clear_tool_uses, ...resolved.tuning?.clear_tool_uses }.keepToolUses).toBe(STRATEGY_DEFAULTS.clear_tool_uses.keepToolUses);
  });
});

describe("resolveStoredSettings", () => {
  it("[ST-6] normalises a stored row, merges a call's overrides, resolves against the given catalogue", () => {
    const stored = { mode: "pilot", model: "gpt-4", historyRounds: 0, tokenBudget: 0, unknown: true };
    const resolved = resolveStoredSettings(stored);
    expect(resolved).toEqual(resolveSettings(normalizeSettings(stored).settings));
    expect(resolved.policy).toMatchObject({ mode: "pilot", model: "gpt-4", tokenBudget: null, historyRounds: settingsForMode("pilot").historyRounds });
    const overridden = resolveStoredSettings(stored, BUILT_IN_MODELS, { model: "gpt-4o", historyRounds: 2 });
    expect(overridden.policy).toMatchObject({ model: "gpt-4o", historyRounds: 2, encoding: "o200k_base" });
    const custom: ModelEntry = { ...BUILT_IN_MODELS.find((entry) => entry.id === "gpt-4")!, contextWindow: 5_000, origin: "custom" };
    expect(resolveStoredSettings(stored, [custom]).policy.contextWindow).toBe(5_000);
    expect(resolveStoredSettings("not an object").policy).toEqual(resolveSettings(DEFAULT_SETTINGS).policy);
  });
});

describe("requestPolicySchema", () => {
  it("[ST-7] parses the policy resolveSettings makes for every catalogue model, unchanged, and every preset", () => {
    for (const entry of BUILT_IN_MODELS) {
      const { policy } = resolveSettings({ ...DEFAULT_SETTINGS, model: entry.id, tuning: { observation_masking: { keepObservations: 2 } } });
      expect(requestPolicySchema.parse(policy), entry.id).toEqual(policy);
    }
    for (const preset of Object.values(PRESETS)) expect(requestPolicySchema.parse(preset.policy), preset.id).toEqual(preset.policy);
  });

  it("[ST-7] its type is the engine's RequestPolicy; a wrong field is refused with its path", () => {
    expectTypeOf<z.infer<typeof requestPolicySchema>>().toExtend<RequestPolicy>();
    expectTypeOf<keyof z.infer<typeof requestPolicySchema>>().toEqualTypeOf<keyof RequestPolicy>();
    const policy = resolveSettings({ ...DEFAULT_SETTINGS, model: "claude-sonnet-4-5-20250929" }).policy;
    const wrong = requestPolicySchema.safeParse({ ...policy, mediaRule: "apple" });
    expect(wrong.error?.issues[0].path).toEqual(["mediaRule"]);
    expect(requestPolicySchema.safeParse({ ...policy, extra: 1 }).success).toBe(false);
  });
});
