import { describe, expect, it } from "vitest";
import { encodingForModel } from "@/lib/context/light";
import { BUILT_IN_MODELS, cachingOf, costOfCall, costOfUsage, findModel, mergeCatalogue, pricesOf, readCustomEntry, type ModelEntry } from ".";

describe("model catalogue", () => {
  it("[MC-1] has one entry per id and the families people use", () => {
    const ids = BUILT_IN_MODELS.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      "gpt-4o",
      "gpt-4.1",
      "gpt-5",
      "o3",
      "o4-mini",
      "claude-sonnet-4-5",
      "claude-opus-4-1",
      "claude-haiku-4-5",
      "gemini-2.5-pro",
      "gemini-3-pro-preview",
      "deepseek-chat",
      "llama-3.3-70b-instruct",
    ]) {
      expect(ids).toContain(id);
    }
  });

  it("[MC-1] an exact tokenizer is the engine's encoding for that model", () => {
    for (const entry of BUILT_IN_MODELS.filter((model) => model.tokenizer.exact)) expect(entry.tokenizer.encoding, entry.id).toBe(encodingForModel(entry.id));
  });

  it("[MC-2] dated snapshots and gateway prefixes match by prefix; a longer id wins; a name that only starts alike does not match", () => {
    expect(findModel("gpt-4o-mini-2024-07-18")).toMatchObject({ entry: { id: "gpt-4o-mini" }, match: "prefix" });
    expect(findModel("openai/gpt-4o")).toMatchObject({ entry: { id: "gpt-4o" }, match: "exact" });
    expect(findModel("claude-sonnet-4-20250514").entry.id).toBe("claude-sonnet-4");
    expect(findModel("claude-sonnet-4-5-20250929").entry.id).toBe("claude-sonnet-4-5");
    expect(findModel("models/gemini-2.5-flash").entry.id).toBe("gemini-2.5-flash");
    expect(findModel("ft:gpt-4o-mini-2024-07-18:acme::abc").entry.id).toBe("gpt-4o-mini");
    expect(findModel("gpt-4.5-preview")).toMatchObject({ match: "fallback", entry: { id: "gpt-4.5-preview", tokenizer: { exact: false } } });
  });

  it("[MC-3] user entries replace built-in ones by id and add new ones", () => {
    const edited: ModelEntry = { ...BUILT_IN_MODELS[0], label: "mine", origin: "custom" };
    const added: ModelEntry = { ...BUILT_IN_MODELS[0], id: "acme-7b", origin: "custom" };
    const merged = mergeCatalogue([edited, added]);
    expect(merged).toHaveLength(BUILT_IN_MODELS.length + 1);
    expect(findModel(BUILT_IN_MODELS[0].id, merged).entry.label).toBe("mine");
    expect(findModel("acme-7b", merged).match).toBe("exact");
  });

  it("[MC-4] prices input, cache reads, cache writes and output separately; no prices, no cost", () => {
    const sonnet = findModel("claude-sonnet-4-5").entry;
    const cost = costOfCall({ input: 100_000, cachedInput: 40_000, cacheWrite: 10_000, output: 10_000 }, sonnet)!;
    expect(cost.input).toBeCloseTo(0.05 * 3);
    expect(cost.cachedInput).toBeCloseTo(0.04 * 0.3);
    expect(cost.cacheWrite).toBeCloseTo(0.01 * 3.75);
    expect(cost.output).toBeCloseTo(0.01 * 15);
    expect(cost.total).toBeCloseTo(0.15 + 0.012 + 0.0375 + 0.15);
    expect(costOfCall({ input: 10, output: 10 }, findModel("unknown-model").entry)).toBeNull();
  });

  it("[CC-4] an entry saved before the cache figures existed reads as it did; the new figures are checked when given", () => {
    const saved = {
      label: "Mine",
      provider: "anthropic",
      contextWindow: 200_000,
      maxOutputTokens: 8_192,
      tokenizer: { encoding: "o200k_base", exact: false },
      mediaRule: "anthropic",
      prices: { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
    };
    expect(readCustomEntry("mine", saved, "2025-01-02T00:00:00Z")).toMatchObject({ id: "mine", prices: saved.prices, takenAt: "2025-01-02", origin: "custom" });
    const full = {
      ...saved,
      prices: { ...saved.prices, cacheWrite1h: 6, reasoning: 15, longContext: { above: 200_000, input: 6, output: 22.5 } },
      caching: { mode: "breakpoints", minimumTokens: 1024, increment: 1, ttls: ["5m", "1h"], billsWrites: true, lookback: 20 },
      sources: { input: { url: "https://example.com/pricing", takenAt: "2026-01-01" } },
    };
    expect(readCustomEntry("mine", full, "2026-01-02T00:00:00Z")?.prices?.longContext?.above).toBe(200_000);
    expect(readCustomEntry("mine", { ...full, caching: { ...full.caching, ttls: ["10m"] } }, "2026-01-02T00:00:00Z")).toBeNull();
  });

  it("[CC-4] every built-in price and cache rule says where it was read and when", () => {
    for (const entry of BUILT_IN_MODELS.filter(
      (model) => model.prices !== undefined && model.provider !== "meta" && model.provider !== "qwen" && model.provider !== "mistral",
    )) {
      for (const figure of ["input", "output", "caching"] as const) {
        expect(entry.sources?.[figure]?.url, `${entry.id} ${figure}`).toMatch(/^https:\/\//);
        expect(entry.sources?.[figure]?.takenAt, `${entry.id} ${figure}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      if (entry.prices?.longContext) expect(entry.sources?.longContext?.url, entry.id).toBeDefined();
    }
  });

  it("[CC-4] a user's edit of a built-in model without cache rules keeps the built-in ones", () => {
    const { caching: _caching, ...edited } = findModel("claude-opus-4-5").entry;
    const merged = mergeCatalogue([{ ...edited, label: "mine", origin: "custom" }]);
    expect(cachingOf(findModel("claude-opus-4-5", merged).entry).minimumTokens).toBe(4096);
  });

  it("[CC-5] each model's cache rules: Anthropic minimums by model, OpenAI automatic in 128-token steps, Gemini implicit minimums", () => {
    const minimum = (id: string) => cachingOf(findModel(id).entry).minimumTokens;
    expect([
      minimum("claude-opus-4-6"),
      minimum("claude-sonnet-4-6"),
      minimum("claude-opus-4-5"),
      minimum("claude-sonnet-4-5"),
      minimum("claude-haiku-4-5"),
      minimum("claude-3-5-haiku"),
    ]).toEqual([4096, 2048, 4096, 1024, 4096, 2048]);
    expect(cachingOf(findModel("claude-sonnet-4-5").entry)).toMatchObject({ mode: "breakpoints", ttls: ["5m", "1h"], billsWrites: true, lookback: 20 });
    expect(cachingOf(findModel("gpt-4o").entry)).toMatchObject({ mode: "automatic", minimumTokens: 1024, increment: 128, billsWrites: false });
    expect(cachingOf(findModel("gpt-5").entry).ttls).toEqual(["5m", "24h"]);
    expect([minimum("gemini-2.5-pro"), minimum("gemini-2.5-flash")]).toEqual([4096, 1024]);
    expect(cachingOf(findModel("gpt-4").entry).mode).toBe("none");
    expect(cachingOf({ provider: "anthropic" }).mode).toBe("breakpoints");
  });

  it("[CC-2] an Anthropic entry without cache figures is priced with Anthropic's multipliers; other providers' fall back to input", () => {
    expect(pricesOf({ provider: "anthropic", prices: { input: 4, output: 20 } })).toMatchObject({ cachedInput: 0.4, cacheWrite: 5, cacheWrite1h: 8 });
    expect(pricesOf({ provider: "openai", prices: { input: 4, output: 20 } })).toEqual({ input: 4, output: 20 });
    const usage = { input: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 1_000_000, output: 0, reasoning: 0 };
    expect(costOfUsage(usage, findModel("claude-opus-4-5").entry)?.total).toBe(10);
    expect(costOfUsage(usage, findModel("unknown-model").entry)).toBeNull();
  });
});
