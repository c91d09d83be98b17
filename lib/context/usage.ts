import { ContextError } from "./errors";

/** Token usage of model calls. */
export interface TokenUsage {
  /** Every input token, those read from or written to a prompt cache included. */
  promptTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Of `promptTokens`, those read from a prompt cache. */
  cachedPromptTokens: number;
  /** Of `promptTokens`, those written to a prompt cache. */
  cacheWriteTokens: number;
}

export const ZERO_USAGE: Readonly<TokenUsage> = Object.freeze({ promptTokens: 0, outputTokens: 0, totalTokens: 0, cachedPromptTokens: 0, cacheWriteTokens: 0 });

/** OpenAI Chat Completions' `usage`. */
export interface OpenAIChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number } | null;
  completion_tokens_details?: Readonly<Record<string, number | undefined>> | null;
}

/** OpenAI Responses' `usage`. */
export interface OpenAIResponsesUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens?: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Anthropic Messages' `usage`: `input_tokens` leaves out what was read from or written to the cache. */
export interface AnthropicUsage {
  input_tokens: number | null;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: Readonly<Record<string, number>> | null;
  server_tool_use?: Readonly<Record<string, number>> | null;
  output_tokens_details?: Readonly<Record<string, number>> | null;
  service_tier?: string | null;
  inference_geo?: string | null;
}

/** The AI SDK's `usage` (`generateText`, `streamText`). */
export interface AiSdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** What `addTokens` and `addStep` accept: the engine's own record or a provider's usage object, as the provider sent it (E-U1). */
export type UsageInput = Partial<TokenUsage> | OpenAIChatUsage | OpenAIResponsesUsage | AnthropicUsage | AiSdkUsage;

type Shape = "engine" | "ai-sdk" | "openai-chat" | "openai-responses" | "anthropic";

// Checked in this order: the first whose fields hold every key given wins ({ input_tokens, output_tokens } reads the same either way).
const SHAPES: readonly [Shape, ReadonlySet<string>][] = [
  ["engine", new Set(["promptTokens", "outputTokens", "totalTokens", "cachedPromptTokens", "cacheWriteTokens"])],
  ["ai-sdk", new Set(["inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens"])],
  ["openai-chat", new Set(["prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details"])],
  ["openai-responses", new Set(["input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details"])],
  [
    "anthropic",
    new Set([
      "input_tokens",
      "output_tokens",
      "cache_read_input_tokens",
      "cache_creation_input_tokens",
      "cache_creation",
      "server_tool_use",
      "output_tokens_details",
      "service_tier",
      "inference_geo",
    ]),
  ],
];

/**
 * Normalises a usage record (E-U1): the engine's own fields, or OpenAI Chat's,
 * OpenAI Responses', Anthropic's or the AI SDK's usage object as sent. A key
 * none of them has, or a count that is not a non-negative number, is refused
 * with `ContextError` naming it: nothing is ever recorded as zero by mistake.
 * @example toUsage({ prompt_tokens: 500, completion_tokens: 20, total_tokens: 520 })
 */
export function toUsage(usage: UsageInput): TokenUsage {
  if (typeof usage !== "object" || usage === null) throw new ContextError("usage must be an object of token counts", { where: "usage" });
  const read = new UsageReader(usage as Readonly<Record<string, unknown>>);
  switch (read.shape()) {
    case "engine":
      return read.usage(
        read.count("promptTokens"),
        read.count("outputTokens"),
        read.total("totalTokens"),
        read.count("cachedPromptTokens"),
        read.count("cacheWriteTokens"),
      );
    case "ai-sdk":
      return read.usage(read.count("inputTokens"), read.count("outputTokens"), read.total("totalTokens"), read.count("cachedInputTokens"), 0);
    case "openai-chat":
      return read.usage(
        read.count("prompt_tokens"),
        read.count("completion_tokens"),
        read.total("total_tokens"),
        read.detail("prompt_tokens_details", "cached_tokens"),
        read.detail("prompt_tokens_details", "cache_write_tokens"),
      );
    case "openai-responses":
      return read.usage(
        read.count("input_tokens"),
        read.count("output_tokens"),
        read.total("total_tokens"),
        read.detail("input_tokens_details", "cached_tokens"),
        read.detail("input_tokens_details", "cache_write_tokens"),
      );
    case "anthropic": {
      // Anthropic's input_tokens leaves out cache reads and writes; the engine's promptTokens holds all three.
      const cached = read.count("cache_read_input_tokens");
      const written = read.count("cache_creation_input_tokens");
      return read.usage(read.count("input_tokens") + cached + written, read.count("output_tokens"), undefined, cached, written);
    }
  }
}

/** Reads counts out of one usage record, refusing what is not a count. */
class UsageReader {
  constructor(private readonly record: Readonly<Record<string, unknown>>) {}

  /** The shape whose fields hold every key given. */
  shape(): Shape {
    const keys = Object.keys(this.record).filter((key) => this.record[key] !== undefined);
    const found = SHAPES.find(([, fields]) => keys.every((key) => fields.has(key)));
    if (found) return found[0];
    const unknown = keys.find((key) => !SHAPES.some(([, fields]) => fields.has(key)));
    const problem = unknown === undefined ? `mixes fields of different providers (${keys.join(", ")})` : `has a field '${unknown}' that no usage shape has`;
    throw new ContextError(
      `usage ${problem}: pass { promptTokens, outputTokens } or a provider's usage object as sent (OpenAI Chat: prompt_tokens, completion_tokens; OpenAI Responses or Anthropic: input_tokens, output_tokens; AI SDK: inputTokens, outputTokens)`,
      { where: unknown === undefined ? "usage" : `usage.${unknown}` },
    );
  }

  count(key: string, from: Readonly<Record<string, unknown>> = this.record, path = `usage.${key}`): number {
    const value = from[key];
    if (value === undefined || value === null) return 0;
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new ContextError(`${path} must be a non-negative number of tokens, got ${JSON.stringify(value)}`, { where: path });
    return value;
  }

  total(key: string): number | undefined {
    return this.record[key] === undefined ? undefined : this.count(key);
  }

  /** A count inside a details object (`prompt_tokens_details.cached_tokens`). */
  detail(object: string, key: string): number {
    const details = this.record[object];
    if (details === undefined || details === null) return 0;
    if (typeof details !== "object") throw new ContextError(`usage.${object} must be an object`, { where: `usage.${object}` });
    return this.count(key, details as Readonly<Record<string, unknown>>, `usage.${object}.${key}`);
  }

  usage(promptTokens: number, outputTokens: number, total: number | undefined, cachedPromptTokens: number, cacheWriteTokens: number): TokenUsage {
    return { promptTokens, outputTokens, totalTokens: total ?? promptTokens + outputTokens, cachedPromptTokens, cacheWriteTokens };
  }
}

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

export function subtractUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    promptTokens: a.promptTokens - b.promptTokens,
    outputTokens: a.outputTokens - b.outputTokens,
    totalTokens: a.totalTokens - b.totalTokens,
    cachedPromptTokens: a.cachedPromptTokens - b.cachedPromptTokens,
    cacheWriteTokens: a.cacheWriteTokens - b.cacheWriteTokens,
  };
}
