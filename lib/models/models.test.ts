import { describe, expect, it } from "vitest";
import { encodingForModel } from "@/lib/context/light";
import { BUILT_IN_MODELS, costOfCall, findModel, mergeCatalogue, type ModelEntry } from ".";

describe("model catalogue", () => {
  it("[MC1] has one entry per id and the families people use", () => {
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

  it("[MC1] an exact tokenizer is the engine's encoding for that model", () => {
    for (const entry of BUILT_IN_MODELS.filter((model) => model.tokenizer.exact)) expect(entry.tokenizer.encoding, entry.id).toBe(encodingForModel(entry.id));
  });

  it("[MC2] dated snapshots and gateway prefixes match by prefix; a longer id wins; a name that only starts alike does not match", () => {
    expect(findModel("gpt-4o-mini-2024-07-18")).toMatchObject({ entry: { id: "gpt-4o-mini" }, match: "prefix" });
    expect(findModel("openai/gpt-4o")).toMatchObject({ entry: { id: "gpt-4o" }, match: "exact" });
    expect(findModel("claude-sonnet-4-20250514").entry.id).toBe("claude-sonnet-4");
    expect(findModel("claude-sonnet-4-5-20250929").entry.id).toBe("claude-sonnet-4-5");
    expect(findModel("models/gemini-2.5-flash").entry.id).toBe("gemini-2.5-flash");
    expect(findModel("ft:gpt-4o-mini-2024-07-18:acme::abc").entry.id).toBe("gpt-4o-mini");
    expect(findModel("gpt-4.5-preview")).toMatchObject({ match: "fallback", entry: { id: "gpt-4.5-preview", tokenizer: { exact: false } } });
  });

  it("[MC3] user entries replace built-in ones by id and add new ones", () => {
    const edited: ModelEntry = { ...BUILT_IN_MODELS[0], label: "mine", origin: "custom" };
    const added: ModelEntry = { ...BUILT_IN_MODELS[0], id: "acme-7b", origin: "custom" };
    const merged = mergeCatalogue([edited, added]);
    expect(merged).toHaveLength(BUILT_IN_MODELS.length + 1);
    expect(findModel(BUILT_IN_MODELS[0].id, merged).entry.label).toBe("mine");
    expect(findModel("acme-7b", merged).match).toBe("exact");
  });

  it("[MC4] prices input, cache reads, cache writes and output separately; no prices, no cost", () => {
    const sonnet = findModel("claude-sonnet-4-5").entry;
    const cost = costOfCall({ input: 100_000, cachedInput: 40_000, cacheWrite: 10_000, output: 10_000 }, sonnet)!;
    expect(cost.input).toBeCloseTo(0.05 * 3);
    expect(cost.cachedInput).toBeCloseTo(0.04 * 0.3);
    expect(cost.cacheWrite).toBeCloseTo(0.01 * 3.75);
    expect(cost.output).toBeCloseTo(0.01 * 15);
    expect(cost.total).toBeCloseTo(0.15 + 0.012 + 0.0375 + 0.15);
    expect(costOfCall({ input: 10, output: 10 }, findModel("unknown-model").entry)).toBeNull();
  });
});
