import { getEncodingNameForModel } from "js-tiktoken/lite";
import { describe, expect, it, vi } from "vitest";
import { REFERENCE_RANKS, referenceEncode } from "../test-support/reference-tokenizer";
import { ENCODINGS, encodingForModel, getTextEncoder, isEncodingName, SPLIT_PATTERNS, type EncodingName } from "./encodings";

// Every chat and embedding model js-tiktoken maps to cl100k_base or o200k_base.
const JS_TIKTOKEN_MODELS = [
  "gpt-3.5-turbo",
  "gpt-35-turbo",
  "gpt-3.5-turbo-0301",
  "gpt-3.5-turbo-0613",
  "gpt-3.5-turbo-1106",
  "gpt-3.5-turbo-0125",
  "gpt-3.5-turbo-16k",
  "gpt-3.5-turbo-16k-0613",
  "gpt-3.5-turbo-instruct",
  "gpt-3.5-turbo-instruct-0914",
  "gpt-4",
  "gpt-4-0314",
  "gpt-4-0613",
  "gpt-4-32k",
  "gpt-4-32k-0314",
  "gpt-4-32k-0613",
  "gpt-4-turbo",
  "gpt-4-turbo-2024-04-09",
  "gpt-4-turbo-preview",
  "gpt-4-1106-preview",
  "gpt-4-0125-preview",
  "gpt-4-vision-preview",
  "text-embedding-ada-002",
  "text-embedding-3-small",
  "text-embedding-3-large",
  "gpt-4o",
  "gpt-4o-2024-05-13",
  "gpt-4o-2024-08-06",
  "gpt-4o-2024-11-20",
  "gpt-4o-mini-2024-07-18",
  "gpt-4o-mini",
  "gpt-4o-search-preview",
  "gpt-4o-mini-search-preview",
  "gpt-4o-audio-preview",
  "gpt-4o-mini-audio-preview",
  "o1",
  "o1-2024-12-17",
  "o1-mini",
  "o1-preview",
  "o1-pro",
  "o3",
  "o3-2025-04-16",
  "o3-mini",
  "o4-mini",
  "o4-mini-2025-04-16",
  "chatgpt-4o-latest",
  "gpt-4o-realtime",
  "gpt-4o-mini-realtime-preview",
  "gpt-4.1",
  "gpt-4.1-2025-04-14",
  "gpt-4.1-mini",
  "gpt-4.1-nano",
  "gpt-4.5-preview",
  "gpt-5",
  "gpt-5-2025-08-07",
  "gpt-5-nano",
  "gpt-5-mini",
  "gpt-5-chat-latest",
] as const;

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini", "o200k_base"],
    ["o1", "o200k_base"],
    ["o3", "o200k_base"],
    ["o4-mini", "o200k_base"],
    ["gpt-4.1", "o200k_base"],
    ["gpt-4.5-preview", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-5.1-codex", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
  ])("[E-T4] %s → %s", (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it("[E-T4] unknown models count with o200k_base", () => {
    expect(encodingForModel("some-future-model")).toBe("o200k_base");
    expect(encodingForModel("")).toBe("o200k_base");
  });

  it("[E-T4] ignores case, whitespace and a provider prefix", () => {
    expect(encodingForModel("  GPT-4  ")).toBe("cl100k_base");
    expect(encodingForModel("openai/gpt-4o")).toBe("o200k_base");
    expect(encodingForModel("azure/gpt-4")).toBe("cl100k_base");
  });

  it("[E-T4] agrees with js-tiktoken on every cl100k_base and o200k_base model it knows", () => {
    const disagreements = JS_TIKTOKEN_MODELS.filter((model) => encodingForModel(model) !== getEncodingNameForModel(model));
    expect(disagreements).toEqual([]);
  });

  it("[E-T4] counts fine-tuned models with their base model's encoding", () => {
    expect(encodingForModel("ft:gpt-3.5-turbo-0125:acme::9abc")).toBe("cl100k_base");
    expect(encodingForModel("ft:gpt-4-0613:acme::9abc")).toBe("cl100k_base");
    expect(encodingForModel("ft:gpt-4o-mini-2024-07-18:acme::9abc")).toBe("o200k_base");
  });
});

describe("encodings", () => {
  it("[E-T5] SPLIT_PATTERNS are js-tiktoken's pat_str", () => {
    for (const encoding of ENCODINGS) expect(SPLIT_PATTERNS[encoding]).toBe(REFERENCE_RANKS[encoding].pat_str);
  });

  it("knows exactly its two encodings", () => {
    expect(ENCODINGS).toEqual(["cl100k_base", "o200k_base"]);
    expect(isEncodingName("o200k_base")).toBe(true);
    expect(isEncodingName("p50k_base")).toBe(false);
    expect(() => getTextEncoder("p50k_base" as EncodingName)).toThrow(/unknown encoding 'p50k_base'/);
    expect(getTextEncoder("cl100k_base")).toBe(getTextEncoder("cl100k_base"));
  });
});

describe("loading encodings", () => {
  it("has every encoding ready outside a Web Worker, so counting stays synchronous", async () => {
    const { isEncodingLoaded, loadEncoding } = await import("./encodings");
    for (const encoding of ENCODINGS) expect(isEncodingLoaded(encoding)).toBe(true);
    await expect(loadEncoding("p50k_base" as EncodingName)).rejects.toThrow(/unknown encoding 'p50k_base'/);
  });

  it("in a Web Worker, loads only the encodings asked for, each before its first count", async () => {
    // A fresh copy of the module, evaluated as if in a worker.
    vi.resetModules();
    vi.stubGlobal(
      "WorkerGlobalScope",
      class WorkerGlobalScope {
        static [Symbol.hasInstance](value: unknown) {
          return value === globalThis;
        }
      },
    );
    try {
      const worker = await import("./encodings");
      expect(ENCODINGS.filter(worker.isEncodingLoaded)).toEqual([]);
      expect(() => worker.getTextEncoder("o200k_base")).toThrow(/await loadEncoding\("o200k_base"\)/);
      await Promise.all([worker.loadEncoding("o200k_base"), worker.loadEncoding("o200k_base")]);
      expect(ENCODINGS.filter(worker.isEncodingLoaded)).toEqual(["o200k_base"]);
      const text = "Hello, wörld! <|endoftext|> 🎉";
      expect(worker.getTextEncoder("o200k_base").encode(text)).toEqual(referenceEncode("o200k_base", text));
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
