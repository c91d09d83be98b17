import { describe, expect, it } from "vitest";
import { AUTOMATION_MODES, makeConfig, MODE_PRESETS, withConfig, type AutomationMode, type ContextConfigOptions } from "./config";
import { ContextError } from "./errors";

function refusal(run: () => unknown): ContextError {
  try {
    run();
  } catch (error) {
    if (ContextError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("makeConfig", () => {
  it.each<[AutomationMode, number, number | null, number | null]>([
    ["pilot", 100, null, null],
    ["copilot", 20, 10, 50],
    ["navigator", 10, 5, 20],
  ])("[E-CFG1] %s: %i history rounds, summary threshold %s, offload threshold %s", (mode, historyRounds, summaryThreshold, offloadThreshold) => {
    expect(makeConfig(mode)).toMatchObject({ mode, historyRounds, summaryThreshold, offloadThreshold });
    expect(MODE_PRESETS[mode]).toEqual({ historyRounds, summaryThreshold, offloadThreshold });
  });

  it("[E-CFG1] defaults to copilot, no retrieval, no neurons, empty extra", () => {
    expect(makeConfig()).toEqual({
      mode: "copilot",
      historyRounds: 20,
      summaryThreshold: 10,
      offloadThreshold: 50,
      enableRetrieval: false,
      neuronNames: [],
      extra: {},
    });
    expect(AUTOMATION_MODES).toEqual(["pilot", "copilot", "navigator"]);
  });

  it("[E-CFG1] applies overrides, including null to disable a threshold", () => {
    const config = makeConfig("navigator", {
      historyRounds: 3,
      summaryThreshold: null,
      enableRetrieval: true,
      neuronNames: ["memory"],
      extra: { token_budget: 8000 },
    });
    expect(config).toMatchObject({
      mode: "navigator",
      historyRounds: 3,
      summaryThreshold: null,
      offloadThreshold: 20,
      enableRetrieval: true,
      neuronNames: ["memory"],
      extra: { token_budget: 8000 },
    });
  });

  it("[E-CFG1][E-CFG4] rejects an unknown mode with a ContextError", () => {
    expect(refusal(() => makeConfig("autopilot" as AutomationMode))).toMatchObject({
      where: "mode",
      message: expect.stringMatching(/unknown automation mode 'autopilot'/),
    });
  });

  it.each<[string, ContextConfigOptions]>([
    ["historyRounds", { historyRounds: 0 }],
    ["historyRounds", { historyRounds: -3 }],
    ["historyRounds", { historyRounds: 2.5 }],
    ["historyRounds", { historyRounds: Number.POSITIVE_INFINITY }],
    ["summaryThreshold", { summaryThreshold: -1 }],
    ["offloadThreshold", { offloadThreshold: Number.NaN }],
    ["enableRetrieval", { enableRetrieval: "yes" as never }],
    ["neuronNames", { neuronNames: ["memory", ""] }],
    ["extra", { extra: [] as never }],
    ["extra.token_budget", { extra: { token_budget: -100 } }],
    ["extra.token_budget", { extra: { token_budget: "8000" as never } }],
    ["extra.context_window", { extra: { context_window: 1.5 } }],
    ["extra.max_output_tokens", { extra: { max_output_tokens: -1 } }],
    ["extra.token_encoding", { extra: { token_encoding: "p50k_base" as never } }],
    ["histroyRounds", { histroyRounds: 3 } as never],
  ])("[E-CFG4] refuses %s in %j with a ContextError naming the field", (field, overrides) => {
    const error = refusal(() => makeConfig("copilot", overrides));
    expect(error.where).toBe(field);
    expect(error.message).toContain(`'${field}'`);
  });

  it("[E-CFG4] accepts the edges: one round, zero thresholds, a zero budget and window, null to disable, other extra keys", () => {
    expect(
      makeConfig("copilot", {
        historyRounds: 1,
        summaryThreshold: 0,
        offloadThreshold: null,
        extra: { token_budget: 0, context_window: 0, max_output_tokens: 0, trace_label: "x" },
      }),
    ).toMatchObject({
      historyRounds: 1,
      summaryThreshold: 0,
      offloadThreshold: null,
      extra: { token_budget: 0, trace_label: "x" },
    });
  });

  it("[E-CFG4] withConfig checks its overrides too", () => {
    expect(refusal(() => withConfig(makeConfig(), { historyRounds: 0 })).where).toBe("historyRounds");
  });

  it("[E-CFG2] the config, its extra and its neuron names are frozen", () => {
    const extra = { token_budget: 8000 };
    const config = makeConfig("copilot", { extra, neuronNames: ["a"] });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.extra)).toBe(true);
    expect(Object.isFrozen(config.neuronNames)).toBe(true);
    expect(() => {
      (config as { historyRounds: number }).historyRounds = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.extra as Record<string, unknown>).token_budget = 1;
    }).toThrow(TypeError);
    // The caller's own object is copied, not frozen under them.
    expect(Object.isFrozen(extra)).toBe(false);
    extra.token_budget = 1;
    expect(config.extra.token_budget).toBe(8000);
  });

  it("[E-CFG2] withConfig returns a changed frozen copy and merges extra", () => {
    const base = makeConfig("navigator", { extra: { token_budget: 8000, token_encoding: "o200k_base" } });
    const changed = withConfig(base, { historyRounds: 4, extra: { token_budget: 2000 } });
    expect(changed).toMatchObject({ mode: "navigator", historyRounds: 4, summaryThreshold: 5, extra: { token_budget: 2000, token_encoding: "o200k_base" } });
    expect(Object.isFrozen(changed)).toBe(true);
    expect(base.extra.token_budget).toBe(8000);
    expect(withConfig(base, { mode: "pilot" })).toMatchObject({ mode: "pilot", historyRounds: 10 });
  });
});
