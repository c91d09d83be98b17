import type { FigureSource, ModelCaching, ModelEntry, ModelFigure, ModelProvider } from "./types";

/** When the caching rules, cache-write multipliers and long-context tiers below were read on the providers' pages. */
export const CACHING_CHECKED_AT = "2026-11-28";

/** The providers' pages each figure was read on (CC-4). */
export const SOURCES = {
  anthropicPrices: "https://platform.claude.com/docs/en/about-claude/pricing",
  anthropicCaching: "https://platform.claude.com/docs/en/build-with-claude/prompt-caching",
  openaiPrices: "https://platform.openai.com/docs/pricing",
  openaiCaching: "https://platform.openai.com/docs/guides/prompt-caching",
  geminiPrices: "https://ai.google.dev/gemini-api/docs/pricing",
  geminiCaching: "https://ai.google.dev/gemini-api/docs/caching",
  deepseekPrices: "https://api-docs.deepseek.com/quick_start/pricing",
  deepseekCaching: "https://api-docs.deepseek.com/guides/kv_cache",
} as const;

/**
 * Anthropic: the request marks what to cache (`cache_control`, at most 4
 * marks), 5-minute or 1-hour TTL, hits looked up to 20 blocks back from a
 * mark, writes billed at 1.25× (5 min) or 2× (1 h) the input price.
 */
export function anthropicCaching(minimumTokens: number): ModelCaching {
  return { mode: "breakpoints", minimumTokens, increment: 1, ttls: ["5m", "1h"], billsWrites: true, lookback: 20 };
}

/**
 * OpenAI: every prompt of 1,024 tokens or more is cached, hits count in
 * 128-token steps, kept 5–10 minutes idle (the lower bound is modelled), 24
 * hours with extended retention where offered; writes cost nothing extra.
 */
export function openaiCaching(extendedRetention: boolean): ModelCaching {
  return { mode: "automatic", minimumTokens: 1024, increment: 128, ttls: extendedRetention ? ["5m", "24h"] : ["5m"], billsWrites: false };
}

/** Gemini 2.5 and later: implicit caching from a per-model minimum; its lifetime is not published, 5 minutes is assumed. */
export function geminiCaching(minimumTokens: number): ModelCaching {
  return { mode: "automatic", minimumTokens, increment: 1, ttls: ["5m"], billsWrites: false };
}

/** DeepSeek: a disk cache of every prefix, in 64-token units, kept hours to days (one hour is assumed). */
export const DEEPSEEK_CACHING: ModelCaching = { mode: "automatic", minimumTokens: 64, increment: 64, ttls: ["1h"], billsWrites: false };

/** No prompt cache known. */
export const NO_CACHING: ModelCaching = { mode: "none", minimumTokens: 0, increment: 1, ttls: ["5m"], billsWrites: false };

/** A provider's usual rules, for an entry that names none (a user's model). */
export function providerCaching(provider: ModelProvider): ModelCaching {
  if (provider === "anthropic") return anthropicCaching(1024);
  if (provider === "openai") return openaiCaching(false);
  if (provider === "google") return geminiCaching(1024);
  if (provider === "deepseek") return DEEPSEEK_CACHING;
  return NO_CACHING;
}

/** The prompt-cache rules a model is predicted with: its own, else its provider's (CC-5). */
export function cachingOf(entry: Pick<ModelEntry, "caching" | "provider">): ModelCaching {
  return entry.caching ?? providerCaching(entry.provider);
}

/** Sources for several figures read on one page on one date. */
export function sourced(url: string, takenAt: string, figures: readonly ModelFigure[], note?: string): Partial<Record<ModelFigure, FigureSource>> {
  const source: FigureSource = { url, takenAt, ...(note === undefined ? {} : { note }) };
  return Object.fromEntries(figures.map((figure) => [figure, source]));
}
