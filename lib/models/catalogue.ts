import type { ModelEntry, ModelPrices, ModelProvider, ModelTokenizer } from "./types";

/**
 * When the built-in figures were taken from the providers' model and pricing
 * pages. Prices move: a user edits an entry (or adds one) on the Models page,
 * and the edited entry wins over the built-in one.
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

type Row = [id: string, label: string, contextWindow: number, maxOutputTokens: number, prices: ModelPrices, aliases?: string[]];

function family(provider: ModelProvider, tokenizer: ModelTokenizer, rows: Row[]): ModelEntry[] {
  const mediaRule = provider === "anthropic" ? "anthropic" : provider === "google" ? "gemini" : "openai";
  return rows.map(([id, label, contextWindow, maxOutputTokens, prices, aliases]) => ({
    id,
    label,
    provider,
    contextWindow,
    maxOutputTokens,
    tokenizer,
    mediaRule,
    prices,
    ...(aliases ? { aliases } : {}),
    takenAt: CATALOGUE_TAKEN_AT,
    origin: "built-in" as const,
  }));
}

/** Anthropic bills cache reads at 0.1× and 5-minute cache writes at 1.25× the input price. */
function claudePrices(input: number, output: number): ModelPrices {
  return { input, output, cachedInput: input / 10, cacheWrite: input * 1.25 };
}

/** The models Context Lab knows out of the box, with window, output limit, tokenizer and prices (USD per million tokens). */
export const BUILT_IN_MODELS: readonly ModelEntry[] = Object.freeze([
  ...family("openai", OPENAI_O200K, [
    ["gpt-5", "GPT-5", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }, ["gpt-5-chat-latest"]],
    ["gpt-5-mini", "GPT-5 mini", 400_000, 128_000, { input: 0.25, output: 2, cachedInput: 0.025 }],
    ["gpt-5-nano", "GPT-5 nano", 400_000, 128_000, { input: 0.05, output: 0.4, cachedInput: 0.005 }],
    ["gpt-5.1", "GPT-5.1", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }],
    ["gpt-5-codex", "GPT-5 Codex", 400_000, 128_000, { input: 1.25, output: 10, cachedInput: 0.125 }],
    ["gpt-4.1", "GPT-4.1", 1_047_576, 32_768, { input: 2, output: 8, cachedInput: 0.5 }],
    ["gpt-4.1-mini", "GPT-4.1 mini", 1_047_576, 32_768, { input: 0.4, output: 1.6, cachedInput: 0.1 }],
    ["gpt-4.1-nano", "GPT-4.1 nano", 1_047_576, 32_768, { input: 0.1, output: 0.4, cachedInput: 0.025 }],
    ["gpt-4o", "GPT-4o", 128_000, 16_384, { input: 2.5, output: 10, cachedInput: 1.25 }, ["chatgpt-4o-latest"]],
    ["gpt-4o-mini", "GPT-4o mini", 128_000, 16_384, { input: 0.15, output: 0.6, cachedInput: 0.075 }],
    ["o3", "o3", 200_000, 100_000, { input: 2, output: 8, cachedInput: 0.5 }],
    ["o3-mini", "o3-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cachedInput: 0.55 }],
    ["o4-mini", "o4-mini", 200_000, 100_000, { input: 1.1, output: 4.4, cachedInput: 0.275 }],
    ["o1", "o1", 200_000, 100_000, { input: 15, output: 60, cachedInput: 7.5 }],
    ["gpt-oss-120b", "gpt-oss-120b (open weights, typical hosted price)", 131_072, 131_072, { input: 0.15, output: 0.6 }],
    ["gpt-oss-20b", "gpt-oss-20b (open weights, typical hosted price)", 131_072, 131_072, { input: 0.05, output: 0.2 }],
  ]),
  ...family("openai", OPENAI_CL100K, [
    ["gpt-4-turbo", "GPT-4 Turbo", 128_000, 4_096, { input: 10, output: 30 }],
    ["gpt-4", "GPT-4", 8_192, 8_192, { input: 30, output: 60 }],
    ["gpt-3.5-turbo", "GPT-3.5 Turbo", 16_385, 4_096, { input: 0.5, output: 1.5 }, ["gpt-35-turbo"]],
  ]),
  ...family("anthropic", CLAUDE, [
    ["claude-opus-4-6", "Claude Opus 4.6", 1_000_000, 128_000, claudePrices(5, 25)],
    ["claude-sonnet-4-6", "Claude Sonnet 4.6", 1_000_000, 64_000, claudePrices(3, 15)],
    ["claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000, claudePrices(5, 25)],
    ["claude-sonnet-4-5", "Claude Sonnet 4.5", 200_000, 64_000, claudePrices(3, 15)],
    ["claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000, claudePrices(1, 5)],
    ["claude-opus-4-1", "Claude Opus 4.1", 200_000, 32_000, claudePrices(15, 75)],
    ["claude-opus-4", "Claude Opus 4", 200_000, 32_000, claudePrices(15, 75), ["claude-opus-4-0"]],
    ["claude-sonnet-4", "Claude Sonnet 4", 200_000, 64_000, claudePrices(3, 15), ["claude-sonnet-4-0"]],
    ["claude-3-7-sonnet", "Claude Sonnet 3.7", 200_000, 64_000, claudePrices(3, 15), ["claude-3-7-sonnet-latest"]],
    ["claude-3-5-haiku", "Claude Haiku 3.5", 200_000, 8_192, claudePrices(0.8, 4), ["claude-3-5-haiku-latest"]],
  ]),
  ...family("google", GEMINI, [
    ["gemini-3-pro-preview", "Gemini 3 Pro (preview)", 1_048_576, 65_536, { input: 2, output: 12, cachedInput: 0.2 }, ["gemini-3-pro"]],
    ["gemini-2.5-pro", "Gemini 2.5 Pro", 1_048_576, 65_536, { input: 1.25, output: 10, cachedInput: 0.31 }],
    ["gemini-2.5-flash", "Gemini 2.5 Flash", 1_048_576, 65_536, { input: 0.3, output: 2.5, cachedInput: 0.075 }],
    ["gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite", 1_048_576, 65_536, { input: 0.1, output: 0.4, cachedInput: 0.025 }],
    ["gemini-2.0-flash", "Gemini 2.0 Flash", 1_048_576, 8_192, { input: 0.1, output: 0.4, cachedInput: 0.025 }],
  ]),
  ...family("deepseek", OPEN_WEIGHTS, [
    ["deepseek-chat", "DeepSeek V3.2 (chat)", 128_000, 8_192, { input: 0.28, output: 0.42, cachedInput: 0.028 }],
    ["deepseek-reasoner", "DeepSeek V3.2 (reasoner)", 128_000, 64_000, { input: 0.28, output: 0.42, cachedInput: 0.028 }],
  ]),
  ...family("meta", OPEN_WEIGHTS, [["llama-3.3-70b-instruct", "Llama 3.3 70B Instruct (typical hosted price)", 131_072, 8_192, { input: 0.6, output: 0.6 }]]),
  ...family("qwen", OPEN_WEIGHTS, [["qwen3-235b-a22b", "Qwen3 235B A22B (typical hosted price)", 131_072, 8_192, { input: 0.2, output: 0.6 }]]),
  ...family("mistral", OPEN_WEIGHTS, [["mistral-large-latest", "Mistral Large", 131_072, 8_192, { input: 2, output: 6 }]]),
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
