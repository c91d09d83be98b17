import { describe, expect, it } from "vitest";
import { AUTOMATION_MODES, makeConfig, MODE_PRESETS, withConfig, type AutomationMode } from "./config";

describe("makeConfig", () => {
  it.each<[AutomationMode, number, number | null, number | null]>([
    ["pilot", 100, null, null],
    ["copilot", 20, 10, 50],
    ["navigator", 10, 5, 20],
  ])("[CFG1] %s: %i history rounds, summary threshold %s, offload threshold %s", (mode, historyRounds, summaryThreshold, offloadThreshold) => {
    expect(makeConfig(mode)).toMatchObject({ mode, historyRounds, summaryThreshold, offloadThreshold });
    expect(MODE_PRESETS[mode]).toEqual({ historyRounds, summaryThreshold, offloadThreshold });
  });

  it("[CFG1] defaults to copilot, no retrieval, no neurons, empty extra", () => {
    expect(makeConfig()).toEqual({ mode: "copilot", historyRounds: 20, summaryThreshold: 10, offloadThreshold: 50, enableRetrieval: false, neuronNames: [], extra: {} });
    expect(AUTOMATION_MODES).toEqual(["pilot", "copilot", "navigator"]);
  });

  it("[CFG1] applies overrides, including null to disable a threshold", () => {
    const config = makeConfig("navigator", { historyRounds: 3, summaryThreshold: null, enableRetrieval: true, neuronNames: ["memory"], extra: { token_budget: 8000 } });
    expect(config).toMatchObject({ mode: "navigator", historyRounds: 3, summaryThreshold: null, offloadThreshold: 20, enableRetrieval: true, neuronNames: ["memory"], extra: { token_budget: 8000 } });
  });

  it("[CFG1] rejects an unknown mode", () => {
    expect(() => makeConfig("autopilot" as AutomationMode)).toThrow(/unknown automation mode 'autopilot'/);
  });

  it("[CFG2] the config, its extra and its neuron names are frozen", () => {
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

  it("[CFG2] withConfig returns a changed frozen copy and merges extra", () => {
    const base = makeConfig("navigator", { extra: { token_budget: 8000, token_encoding: "o200k_base" } });
    const changed = withConfig(base, { historyRounds: 4, extra: { token_budget: 2000 } });
    expect(changed).toMatchObject({ mode: "navigator", historyRounds: 4, summaryThreshold: 5, extra: { token_budget: 2000, token_encoding: "o200k_base" } });
    expect(Object.isFrozen(changed)).toBe(true);
    expect(base.extra.token_budget).toBe(8000);
    expect(withConfig(base, { mode: "pilot" })).toMatchObject({ mode: "pilot", historyRounds: 10 });
  });
});
