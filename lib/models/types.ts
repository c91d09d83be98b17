import type { EncodingName, MediaRule } from "@/lib/context/light";

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

/** US dollars per million tokens. */
export interface ModelPrices {
  input: number;
  output: number;
  /** Input tokens read from the provider's prompt cache. */
  cachedInput?: number;
  /** Input tokens written to the prompt cache (Anthropic charges these above the input price). */
  cacheWrite?: number;
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
