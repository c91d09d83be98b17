import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "@/lib/playground/settings";
import { readStoredSettings, toStoredSettings } from "./stored-settings";

describe("readStoredSettings", () => {
  it("gives the defaults for a conversation that stored none", () => {
    expect(readStoredSettings({})).toEqual(DEFAULT_SETTINGS);
    expect(readStoredSettings(null)).toEqual(DEFAULT_SETTINGS);
  });

  it("round-trips settings through JSON", () => {
    const settings = { ...DEFAULT_SETTINGS, mode: "navigator" as const, historyRounds: 3, summaryThreshold: null, encoding: "o200k_base" as const };
    expect(readStoredSettings(toStoredSettings(settings))).toEqual(settings);
  });

  it("falls back field by field on values of the wrong type and drops unknown processors", () => {
    const read = readStoredSettings({ mode: "autopilot", tokenBudget: -5, maxOutputTokens: 2048, encoding: "p50k", processors: [{ kind: "token_budget", enabled: false }, { kind: "teleport" }, { kind: "token_budget" }] });
    expect(read.mode).toBe("copilot");
    expect(read.tokenBudget).toBe(DEFAULT_SETTINGS.tokenBudget);
    expect(read.maxOutputTokens).toBe(2048);
    expect(read.encoding).toBeUndefined();
    expect(read.processors[0]).toEqual({ kind: "token_budget", enabled: false });
    expect(read.processors.map((entry) => entry.kind).sort()).toEqual([...DEFAULT_SETTINGS.processors.map((entry) => entry.kind)].sort());
  });
});
