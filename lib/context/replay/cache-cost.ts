import { createCacheState, predictCall, type CacheState } from "../cost/cache-model";
import { priceUsage } from "../cost/price";
import { requestSegments } from "../cost/segments";
import type { CachePrediction, CacheRules, CacheTtl, TokenPrices } from "../cost/types";
import type { Message, ToolDefinition } from "../messages";
import type { TiktokenCounter } from "../tokens/counter";
import type { CallCost } from "./types";

/** A replay's prompt cache as the cache model keeps it (CC-13): the model's rules, the TTL its writes get, what is cached. */
export interface ReplayCache {
  rules: CacheRules;
  ttl: CacheTtl;
  state: CacheState;
}

/** The replay's cache model, or null when no rules were given (then the shared prefix is read, RP5). */
export function replayCache(rules: CacheRules | null | undefined, ttl: CacheTtl | undefined): ReplayCache | null {
  if (!rules) return null;
  return { rules, ttl: ttl ?? rules.ttls[0] ?? "5m", state: createCacheState() };
}

/**
 * A replayed request's cache read and writes (CC-7, CC-8). Replays carry no
 * times, so nothing expires; a request without marks is taken as marked after
 * its system prompt and at its end, at the replay's TTL (CC-6).
 */
export function predictReplayCall(
  cache: ReplayCache,
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
  counter: TiktokenCounter,
): CachePrediction {
  const segments = requestSegments(messages, tools, {
    countMessage: (message) => counter.countMessage(message),
    countTools: (offered) => counter.countTools(offered),
    ...(cache.rules.mode === "breakpoints" ? { assumeBreakpoints: cache.ttl } : {}),
  });
  return predictCall({ segments, at: null, rules: cache.rules }, cache.state);
}

/** RP6 with the cache model: the call's input tokens split as predicted, priced by the one computation (CC-1). */
export function costOfPrediction(prediction: CachePrediction, inputTokens: number, outputTokens: number, prices: TokenPrices): CallCost {
  const written = prediction.cacheWrite5m + prediction.cacheWrite1h;
  const read = Math.min(prediction.cacheRead, inputTokens);
  const usage = {
    input: Math.max(0, inputTokens - read - written),
    cacheRead: read,
    cacheWrite5m: prediction.cacheWrite5m,
    cacheWrite1h: prediction.cacheWrite1h,
    output: outputTokens,
    reasoning: 0,
  };
  const cost = priceUsage(usage, prices);
  return { input: cost.input, cachedInput: cost.cacheRead, cacheWrite: cost.cacheWrite5m + cost.cacheWrite1h, output: cost.output, total: cost.total };
}
