import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, settingsForMode } from "@/lib/playground/settings";
import { settingsOfConversation } from "./settings";

const of = (settings: unknown) => settingsOfConversation({ settings: settings as Record<string, never> });

describe("settingsOfConversation", () => {
  it("gives the defaults, with artifactThreshold = maxToolResultSize, for empty settings", () => {
    expect(of({})).toEqual({ ...DEFAULT_SETTINGS, artifactThreshold: DEFAULT_SETTINGS.maxToolResultSize });
  });

  it("takes each valid stored field over the stored mode's preset", () => {
    const settings = of({ mode: "navigator", tokenBudget: 8_000, model: "gpt-4", summaryThreshold: null, maxToolResultSize: 2_000 });
    expect(settings).toMatchObject({ ...settingsForMode("navigator"), tokenBudget: 8_000, model: "gpt-4", summaryThreshold: null, maxToolResultSize: 2_000 });
    expect(settings.historyRounds).toBe(10);
    expect(settings.artifactThreshold).toBe(2_000);
    expect(of({ maxToolResultSize: 2_000, artifactThreshold: 300 }).artifactThreshold).toBe(300);
  });

  it("falls back field by field on junk and never throws", () => {
    const settings = of({
      mode: "autopilot",
      historyRounds: -3,
      summaryThreshold: "10",
      tokenBudget: 1.5,
      contextWindow: 64_000,
      maxOutputTokens: 0,
      model: "",
      encoding: "p50k_base",
      processors: [{ kind: "teleporter", enabled: true }],
      artifactThreshold: null,
    });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, contextWindow: 64_000, maxOutputTokens: 0, artifactThreshold: DEFAULT_SETTINGS.maxToolResultSize });
    for (const junk of [null, [], "copilot", 42]) expect(of(junk)).toEqual(of({}));
  });

  it("keeps a valid explicit encoding and processor list", () => {
    const processors = [{ kind: "token_budget", enabled: false }];
    expect(of({ encoding: "cl100k_base", processors })).toMatchObject({ encoding: "cl100k_base", processors });
  });
});
