import type { CacheRules, EncodingName, MediaRule, TokenPrices } from "@/lib/context/light";

/** Who serves a model: decides how media are counted and which wire format it speaks natively. */
export type ModelProvider = "openai" | "anthropic" | "google" | "deepseek" | "meta" | "mistral" | "qwen" | "other";

/** The media token rules a provider publishes (images, audio, documents): the engine's. */
export type { MediaRule };

/** How a model's tokens are counted here. */
export interface ModelTokenizer {
  /** The tiktoken encoding counts are made with. */
  encoding: EncodingName;
  /** True when that encoding is the model's own, so counts are exact; false for an approximation. */
  exact: boolean;
  /** For an approximation: what the model really uses, in a few words. */
  note?: string;
}

/**
 * US dollars per million tokens (CC-1–CC-3): input, output, cache reads, cache
 * writes by TTL (`cacheWrite` is the 5-minute write), reasoning where it is
 * priced apart, and a long-context tier where the provider has one.
 */
export type ModelPrices = TokenPrices;

/** A model's prompt-cache rules (CC-5): how it caches, the minimum prefix, the increment, the TTLs offered. */
export type ModelCaching = CacheRules;

/** The figures of an entry a source is given for. */
export type ModelFigure = "input" | "output" | "cachedInput" | "cacheWrite" | "cacheWrite1h" | "reasoning" | "longContext" | "caching";

/** Where a figure was read, and when. */
export interface FigureSource {
  /** The provider's page. */
  url: string;
  /** ISO date the figure was read there. */
  takenAt: string;
  note?: string;
}

/** One model of the catalogue. */
export interface ModelEntry {
  /** The name agents send (`gpt-4o`, `claude-sonnet-4-5`); dated snapshots match by prefix. */
  id: string;
  label: string;
  provider: ModelProvider;
  contextWindow: number;
  maxOutputTokens: number;
  tokenizer: ModelTokenizer;
  mediaRule: MediaRule;
  /** Absent when not known (a model added without prices, the fallback): costs then show as unknown. */
  prices?: ModelPrices;
  /** Absent: the provider's usual rules apply (`cachingOf`). */
  caching?: ModelCaching;
  /** Where each figure comes from and when it was read (CC-4). */
  sources?: Partial<Record<ModelFigure, FigureSource>>;
  /** Other names that mean this model exactly (`claude-3-5-sonnet-latest`). */
  aliases?: string[];
  /** When the figures were taken (ISO date). */
  takenAt: string;
  /** "built-in", or "custom" for an entry a user added or edited. */
  origin: "built-in" | "custom";
}

/** A model name resolved against the catalogue. */
export interface ModelMatch {
  entry: ModelEntry;
  /** How the name matched: its own id or alias, a dated snapshot of it, or nothing (the fallback entry). */
  match: "exact" | "prefix" | "fallback";
}
