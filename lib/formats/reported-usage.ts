/**
 * Providers' and agents' usage objects read into one shape (F-SF1): what a
 * call reported it used, split by what the prompt cache did.
 */

import type { UsageTokens } from "@/lib/context/cost/types";

/**
 * Usage as the provider reported it (F-SF1): the tokens by how they are billed,
 * the engine's `UsageTokens` (an automatic cache's writes count as 5-minute
 * writes; 0 reasoning when the provider does not say), with the object it came in.
 */
export interface ReportedUsage extends UsageTokens {
  /** The provider's usage object exactly as it came. */
  raw: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

function has(object: Record<string, unknown>, ...keys: string[]): boolean {
  return keys.some((key) => object[key] !== undefined && object[key] !== null);
}

/**
 * Reads a provider's usage object into `ReportedUsage` (F-SF1): Anthropic
 * Messages (`cache_creation.ephemeral_5m/1h_input_tokens`), OpenAI Chat and
 * Responses (cached tokens are part of the input there), LiteLLM's chat
 * usage with Anthropic's cache fields, OpenHands' `TokenUsage`, Gemini
 * `usageMetadata`, Codex `token_count` info, the AI SDK's usage, Cline's
 * `api_req_started` and message metrics, Gemini CLI's token summary,
 * Pydantic AI's `RequestUsage` (and its older `request_tokens` shape),
 * OpenTelemetry `gen_ai.usage.*` span attributes and Helicone's row counts. Returns
 * undefined for anything else; never throws, since a log's usage is
 * informative, not required.
 * @example readReportedUsage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 900 })
 */
export function readReportedUsage(raw: unknown): ReportedUsage | undefined {
  if (!isObject(raw)) return undefined;
  if (isObject(raw.raw) && has(raw, "input", "output")) return raw as unknown as ReportedUsage;
  const pydantic = readPydanticUsage(raw);
  if (pydantic !== undefined) return pydantic;
  const attributes = usageAttributes(raw);
  if (attributes !== undefined) return attributes;
  if (has(raw, "prompt_cache_read_tokens", "prompt_cache_write_tokens")) {
    // Helicone's request rows bill prompt, cache-write and cache-read tokens at their own rates: its prompt_tokens holds neither.
    return usage(raw, count(raw.prompt_tokens), count(raw.prompt_cache_read_tokens), count(raw.prompt_cache_write_tokens), 0, count(raw.completion_tokens), 0);
  }
  if (
    !has(raw, "prompt_tokens") &&
    (has(raw, "cache_read_input_tokens", "cache_creation_input_tokens", "cache_creation") ||
      (has(raw, "input_tokens") && !has(raw, "input_tokens_details", "cached_input_tokens", "total_tokens")))
  ) {
    // Anthropic: input_tokens leaves out cache reads and writes; the write is split by TTL when cache_creation is given.
    const written = count(raw.cache_creation_input_tokens);
    const split = isObject(raw.cache_creation) ? raw.cache_creation : undefined;
    const write1h = split === undefined ? 0 : count(split.ephemeral_1h_input_tokens);
    const write5m =
      split === undefined ? written : count(split.ephemeral_5m_input_tokens) + Math.max(0, written - count(split.ephemeral_5m_input_tokens) - write1h);
    return usage(raw, count(raw.input_tokens), count(raw.cache_read_input_tokens), write5m, write1h, count(raw.output_tokens), 0);
  }
  if (has(raw, "prompt_tokens", "completion_tokens")) {
    const details = isObject(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
    const output = isObject(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
    // LiteLLM answering for Anthropic adds its cache fields and counts them in prompt_tokens; OpenHands' TokenUsage names them cache_read/write_tokens.
    const cached = count(details.cached_tokens) || count(raw.cache_read_input_tokens) || count(raw.cache_read_tokens);
    const written = count(details.cache_write_tokens) || count(raw.cache_creation_input_tokens) || count(raw.cache_write_tokens);
    return usage(
      raw,
      Math.max(0, count(raw.prompt_tokens) - cached - written),
      cached,
      written,
      0,
      count(raw.completion_tokens),
      count(output.reasoning_tokens),
    );
  }
  if (has(raw, "input_tokens", "output_tokens")) {
    // OpenAI Responses, or Codex's token_count info (cached_input_tokens, reasoning_output_tokens).
    const details = isObject(raw.input_tokens_details) ? raw.input_tokens_details : {};
    const output = isObject(raw.output_tokens_details) ? raw.output_tokens_details : {};
    const cached = count(details.cached_tokens) || count(raw.cached_input_tokens);
    const reasoning = count(output.reasoning_tokens) || count(raw.reasoning_output_tokens);
    return usage(raw, Math.max(0, count(raw.input_tokens) - cached), cached, 0, 0, count(raw.output_tokens), reasoning);
  }
  if (has(raw, "promptTokenCount", "candidatesTokenCount")) {
    // Gemini: candidates leave out thoughts; the prompt count holds cached content.
    const cached = count(raw.cachedContentTokenCount);
    const thoughts = count(raw.thoughtsTokenCount);
    return usage(raw, Math.max(0, count(raw.promptTokenCount) - cached), cached, 0, 0, count(raw.candidatesTokenCount) + thoughts, thoughts);
  }
  if (has(raw, "tokensIn", "tokensOut")) {
    // Cline's api_req_started: input, cache writes and cache reads reported apart, as Anthropic does.
    return usage(raw, count(raw.tokensIn), count(raw.cacheReads), count(raw.cacheWrites), 0, count(raw.tokensOut), 0);
  }
  if (typeof raw.prompt === "number" && typeof raw.completion === "number") {
    // Cline's stored message metrics: `cached` is cache writes and reads added together, so it is counted as reads.
    return usage(raw, count(raw.prompt), count(raw.cached), 0, 0, count(raw.completion), 0);
  }
  if (typeof raw.input === "number" && typeof raw.output === "number" && has(raw, "cached", "total")) {
    // Gemini CLI's token summary: usageMetadata renamed, so input holds the cached tokens and output leaves out thoughts.
    const cached = count(raw.cached);
    const thoughts = count(raw.thoughts);
    return usage(raw, Math.max(0, count(raw.input) - cached), cached, 0, 0, count(raw.output) + thoughts, thoughts);
  }
  if (has(raw, "inputTokens", "outputTokens")) {
    const cached = count(raw.cachedInputTokens);
    return usage(raw, Math.max(0, count(raw.inputTokens) - cached), cached, 0, 0, count(raw.outputTokens), count(raw.reasoningTokens));
  }
  return undefined;
}

/**
 * Pydantic AI's `RequestUsage`: `input_tokens` counts every input token, cache
 * reads and writes included (its Anthropic models add them in); older
 * versions wrote `request_tokens`/`response_tokens`, the cache counts only in `details`.
 */
function readPydanticUsage(raw: Record<string, unknown>): ReportedUsage | undefined {
  const details = isObject(raw.details) ? raw.details : {};
  const current =
    has(raw, "cache_read_tokens", "cache_write_tokens") &&
    has(raw, "input_tokens", "output_tokens") &&
    !has(raw, "cache_read_input_tokens", "cache_creation_input_tokens");
  if (!current && !has(raw, "request_tokens", "response_tokens")) return undefined;
  const cached = current ? count(raw.cache_read_tokens) : count(details.cached_tokens) || count(details.cache_read_input_tokens);
  const written = current ? count(raw.cache_write_tokens) : count(details.cache_creation_input_tokens);
  const input = current ? count(raw.input_tokens) : count(raw.request_tokens);
  const output = current ? count(raw.output_tokens) : count(raw.response_tokens);
  return usage(raw, Math.max(0, input - cached - written), cached, written, 0, output, count(details.reasoning_tokens));
}

/**
 * OpenTelemetry span attributes (`gen_ai.usage.input_tokens` or the older
 * `gen_ai.usage.prompt_tokens`, `.output_tokens` / `.completion_tokens`,
 * OpenLLMetry's `.cache_read_input_tokens` / `.cache_creation_input_tokens`
 * and the conventions' `.cache_read.input_tokens` / `.cache_creation.input_tokens`).
 * The input count holds the cached tokens, unless they outnumber it.
 */
function usageAttributes(raw: Record<string, unknown>): ReportedUsage | undefined {
  const number = (...keys: string[]) => count(raw[keys.find((key) => has(raw, key)) ?? ""]);
  const prefix = "gen_ai.usage.";
  if (!has(raw, `${prefix}input_tokens`, `${prefix}prompt_tokens`, `${prefix}output_tokens`, `${prefix}completion_tokens`)) return undefined;
  const input = number(`${prefix}input_tokens`, `${prefix}prompt_tokens`);
  const read = number(`${prefix}cache_read_input_tokens`, `${prefix}cache_read.input_tokens`);
  const written = number(`${prefix}cache_creation_input_tokens`, `${prefix}cache_creation.input_tokens`);
  const uncached = read + written > input ? input : input - read - written;
  return usage(raw, uncached, read, written, 0, number(`${prefix}output_tokens`, `${prefix}completion_tokens`), number(`${prefix}reasoning_tokens`));
}

function usage(
  raw: Record<string, unknown>,
  input: number,
  cacheRead: number,
  cacheWrite5m: number,
  cacheWrite1h: number,
  output: number,
  reasoning: number,
): ReportedUsage {
  return { input, cacheRead, cacheWrite5m, cacheWrite1h, output, reasoning, raw };
}
