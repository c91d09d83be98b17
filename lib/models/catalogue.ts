import { anthropicCaching, CACHING_CHECKED_AT, DEEPSEEK_CACHING, geminiCaching, NO_CACHING, openaiCaching, SOURCES, sourced } from "./caching";
import type { FigureSource, ModelCaching, ModelEntry, ModelFigure, ModelPrices, ModelProvider, ModelTokenizer } from "./types";

/**
 * When the built-in figures were taken from the providers' model and pricing
 * pages. Prices move: a user edits an entry (or adds one) on the Models page,
 * and the edited entry wins over the built-in one. Each entry's `sources`
 * say where every figure was read and when (CC-4).
 */
export const CATALOGUE_TAKEN_AT = "2026-06-15";

const OPENAI_O200K: ModelTokenizer = { encoding: "o200k_base", exact: true };
const OPENAI_CL100K: ModelTokenizer = { encoding: "cl100k_base", exact: true };
const CLAUDE: ModelTokenizer = { encoding: "o200k_base", exact: false, note: "Claude's tokenizer is not public; o200k_base approximates it" };
const GEMINI: ModelTokenizer = {
  encoding: "o200k_base",
  exact: false,
  note: "Gemini counts with its own SentencePiece vocabulary; o200k_base approximates it",
};
const OPEN_WEIGHTS: ModelTokenizer = { encoding: "o200k_base", exact: false, note: "the model has its own vocabulary; o200k_base approximates it" };

type Sources = Partial<Record<ModelFigure, FigureSource>>;

/** What a row adds beyond its window and prices. */
interface RowExtra {
  aliases?: string[];
  /** The model's own cache rules, when they differ from the family's. */
  caching?: ModelCaching;
}

type Row = [id: string, label: string, contextWindow: number, maxOutputTokens: number, prices: ModelPrices, extra?: RowExtra];

/** What every model of a family shares: provider, tokenizer, cache rules and where the figures were read. */
interface Family {
  provider: ModelProvider;
  tokenizer: ModelTokenizer;
  caching: ModelCaching;
  sources: Sources;
}

function family({ provider, tokenizer, caching, sources }: Family, rows: Row[]): ModelEntry[] {
  const mediaRule = provider === "anthropic" ? "anthropic" : provider === "google" ? "gemini" : "openai";
  return rows.map(([id, label, contextWindow, maxOutputTokens, prices, extra = {}]) => ({
    id,
    label,
    provider,
    contextWindow,
    maxOutputTokens,
    tokenizer,
    mediaRule,
    prices,
    caching: extra.caching ?? caching,
    sources: prices.longContext === undefined ? sources : { ...sources, longContext: sources.longContext ?? sources.input },
    ...(extra.aliases ? { aliases: extra.aliases } : {}),
    takenAt: CATALOGUE_TAKEN_AT,
    origin: "built-in" as const,
  }));
}

/** Anthropic bills cache reads at 0.1×, 5-minute writes at 1.25× and 1-hour writes at 2× the input price (CC-2). */
function claudePrices(input: number, output: number, longContext?: { input: number; output: number }): ModelPrices {
  const tier = (base: number, out: number) => ({ input: base, output: out, cachedInput: base / 10, cacheWrite: base * 1.25, cacheWrite1h: base * 2 });
  return { ...tier(input, output), ...(longContext ? { longContext: { above: 200_000, ...tier(longContext.input, longContext.output) } } : {}) };
}

const ANTHROPIC: Family = {
  provider: "anthropic",
  tokenizer: CLAUDE,
  caching: anthropicCaching(1024),
  sources: {
    ...sourced(SOURCES.anthropicPrices, CATALOGUE_TAKEN_AT, ["input", "output", "cachedInput", "cacheWrite", "reasoning"]),
    ...sourced(SOURCES.anthropicPrices, CACHING_CHECKED_AT, ["cacheWrite1h", "longContext"], "long context: Sonnet 4.5 and 4 above 200k input tokens"),
    ...sourced(SOURCES.anthropicCaching, CACHING_CHECKED_AT, ["caching"]),
  },
};

const OPENAI_SOURCES: Sources = {
  ...sourced(SOURCES.openaiPrices, CATALOGUE_TAKEN_AT, ["input", "output", "cachedInput", "reasoning"]),
  ...sourced(SOURCES.openaiCaching, CACHING_CHECKED_AT, ["caching"]),
};

const GOOGLE: Family = {
  provider: "google",
  tokenizer: GEMINI,
  caching: geminiCaching(1024),
  sources: {
    ...sourced(SOURCES.geminiPrices, CATALOGUE_TAKEN_AT, ["input", "output", "cachedInput", "reasoning"]),
    ...sourced(SOURCES.geminiPrices, CACHING_CHECKED_AT, ["longContext"], "prompts above 200k tokens"),
    ...sourced(SOURCES.geminiCaching, CACHING_CHECKED_AT, ["caching"], "implicit caching minimums; the lifetime is not published"),
  },
};

const DEEPSEEK: Family = {
  provider: "deepseek",
  tokenizer: OPEN_WEIGHTS,
  caching: DEEPSEEK_CACHING,
  sources: {
    ...sourced(SOURCES.deepseekPrices, CATALOGUE_TAKEN_AT, ["input", "output", "cachedInput", "reasoning"]),
    ...sourced(SOURCES.deepseekCaching, CACHING_CHECKED_AT, ["caching"]),
  },
};

/** Open-weight models at a typical hosted price: the host's cache, if any, is unknown. */
function hosted(provider: ModelProvider): Family {
  return { provider, tokenizer: OPEN_WEIGHTS, caching: NO_CACHING, sources: {} };
}

/** The models Context Lab knows out of the box, with window, output limit, tokenizer, prices (USD per million tokens) and cache rules. */
export const BUILT_IN_MODELS: readonly ModelEntry[] = Object.freeze([
  // Extended (24-hour) retention is offered on GPT-5, GPT-5.1, GPT-5 Codex and GPT-4.1.
  ...family({ provider: "openai", tokenizer: OPENAI_O200K, caching: openaiCaching(false), sources: OPENAI_SOURCES }, [
    ["gpt-5", "GPT-5", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }, { caching: openaiCaching(true), aliases: ["gpt-5-chat-latest"] }],
    ["gpt-5-mini", "GPT-5 mini", 400_000, 128_000, { input: 0.25, output: 2, cachedInput: 0.025 }],
    ["gpt-5-nano", "GPT-5 nano", 400_000, 128_000, { input: 0.05, output: 0.4, cachedInput: 0.005 }],
    ["gpt-5.1", "GPT-5.1", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }, { caching: openaiCaching(true) }],
    ["gpt-5-codex", "GPT-5 Codex", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }, { caching: openaiCaching(true) }],
    ["gpt-4.1", "GPT-4.1", 1_047_576, 32_768, { input: 2, output: 8, cachedInput: 0.5 }, { caching: openaiCaching(true) }],
    ["gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, { input: 0.4, output: 1.6, cachedInput: 0.1 }],
    ["gpt-4.1-nano", "GPT-4.1 nano", 1_047_576, 32_768, { input: 0.1, output: 0.4, cachedInput: 0.025 }],
    ["gpt-4o", "GPT-4o", 128_000, 16_384, { input: 2.5, output: 10, cachedInput: 1.25 }, { aliases: ["chatgpt-4o-latest"] }],
    ["gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, { input: 0.15, output: 0.6, cachedInput: 0.075 }],
    ["o3", "o3", 200_000, 100_000, { input: 2, output: 8, cachedInput: 0.5 }],
    ["o3-mini", "o3-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cachedInput: 0.55 }],
    ["o4-mini", "o4-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cachedInput: 0.275 }],
    ["o1", "o1", 200_000, 100_000, { input: 15, output: 60, cachedInput: 7.5 }],
    ["gpt-oss-120b", "gpt-oss-120b (open weights, typical hosted price)", 131_072, 131_072, { input: 0.15, output: 0.6 }, { caching: NO_CACHING }],
    ["gpt-oss-20b", "gpt-oss-20b (open weights, typical hosted price)", 131_072, 131_072, { input: 0.05, output: 0.2 }, { caching: NO_CACHING }],
  ]),
  ...family({ provider: "openai", tokenizer: OPENAI_CL100K, caching: NO_CACHING, sources: OPENAI_SOURCES }, [
    ["gpt-4-turbo", "GPT-4 Turbo", 128_000, 4_096, { input: 10, output: 30 }],
    ["gpt-4", "GPT-4", 8_192, 8_192, { input: 30, output: 60 }],
    ["gpt-3.5-turbo", "GPT-3.5 Turbo", 16_385, 4_096, { input: 0.5, output: 1.5 }, { aliases: ["gpt-35-turbo"] }],
  ]),
  ...family(ANTHROPIC, [
    ["claude-opus-4-6", "Claude Opus 4.6", 1_000_000, 128_000, claudePrices(5, 25), { caching: anthropicCaching(4096) }],
    ["claude-sonnet-4-6", "Claude Sonnet 4.6", 1_000_000, 64_000, claudePrices(3, 15), { caching: anthropicCaching(2048) }],
    ["claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000, claudePrices(5, 25), { caching: anthropicCaching(4096) }],
    ["claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 64_000, claudePrices(3, 15, { input: 6, output: 22.5 })],
    ["claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000, claudePrices(1, 5), { caching: anthropicCaching(4096) }],
    ["claude-opus-4-1", "Claude Opus 4.1", 200_000, 32_000, claudePrices(15, 75)],
    ["claude-opus-4", "Claude Opus 4", 200_000, 32_000, claudePrices(15, 75), { aliases: ["claude-opus-4-0"] }],
    ["claude-sonnet-4", "Claude Sonnet 4", 200_000, 64_000, claudePrices(3, 15, { input: 6, output: 22.5 }), { aliases: ["claude-sonnet-4-0"] }],
    ["claude-3-7-sonnet", "Claude Sonnet 3.7", 200_000, 64_000, claudePrices(3, 15), { aliases: ["claude-3-7-sonnet-latest"] }],
    ["claude-3-5-haiku", "Claude Haiku 3.5", 200_000, 8_192, claudePrices(0.8, 4), { caching: anthropicCaching(2048), aliases: ["claude-3-5-haiku-latest"] }],
  ]),
  ...family(GOOGLE, [
    [
      "gemini-3-pro-preview",
      "Gemini 3 Pro (preview)",
      1_048_576,
      65_536,
      { input: 2, output: 12, cachedInput: 0.2, longContext: { above: 200_000, input: 4, output: 18, cachedInput: 0.4 } },
      { caching: geminiCaching(4096), aliases: ["gemini-3-pro"] },
    ],
    [
      "gemini-2.5-pro",
      "Gemini 2.5 Pro",
      1_048_576,
      65_536,
      { input: 1.25, output: 10, cachedInput: 0.31, longContext: { above: 200_000, input: 2.5, output: 15, cachedInput: 0.625 } },
      { caching: geminiCaching(4096) },
    ],
    ["gemini-2.5-flash", "Gemini 2.5 Flash", 1_048_576, 65_536, { input: 0.3, output: 2.5, cachedInput: 0.075 }],
    ["gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 1_048_576, 65_536, { input: 0.1, output: 0.4, cachedInput: 0.025 }],
    // Implicit caching is Gemini 2.5 and later's; 2.0 caches only what is cached explicitly.
    ["gemini-2.0-flash", "Gemini 2.0 Flash", 1_048_576, 8_192, { input: 0.1, output: 0.4, cachedInput: 0.025 }, { caching: NO_CACHING }],
  ]),
  ...family(DEEPSEEK, [
    ["deepseek-chat", "DeepSeek V3.2 (chat)", 128_000, 8_192, { input: 0.28, output: 0.42, cachedInput: 0.028 }],
    ["deepseek-reasoner", "DeepSeek V3.2 (reasoner)", 128_000, 64_000, { input: 0.28, output: 0.42, cachedInput: 0.028 }],
  ]),
  ...family(hosted("meta"), [["llama-3.3-70b-instruct", "Llama 3.3 70B Instruct (typical hosted price)", 131_072, 8_192, { input: 0.6, output: 0.6 }]]),
  ...family(hosted("qwen"), [["qwen3-235b-a22b", "Qwen3 235B A22B (typical hosted price)", 131_072, 8_192, { input: 0.2, output: 0.6 }]]),
  ...family(hosted("mistral"), [["mistral-large-latest", "Mistral Large", 131_072, 8_192, { input: 2, output: 6 }]]),
]);

/** What a model the catalogue does not know is counted and budgeted with, labelled as such wherever it shows. */
export const FALLBACK_MODEL: ModelEntry = Object.freeze<ModelEntry>({
  id: "unknown",
  label: "Not in the catalogue",
  provider: "other",
  contextWindow: 128_000,
  maxOutputTokens: 4_096,
  tokenizer: { encoding: "o200k_base", exact: false, note: "the model is not in the catalogue; o200k_base approximates its tokenizer" },
  mediaRule: "openai",
  takenAt: CATALOGUE_TAKEN_AT,
  origin: "built-in",
});
