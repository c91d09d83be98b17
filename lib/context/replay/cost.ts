import { priceUsage } from "../cost/price";
import type { BilledTokens, CallCost, TokenPrices } from "./types";

/**
 * What a call costs (E-RP6), priced by the one price computation (CC-1):
 * uncached input at the input price, cache reads at the cached price, cache
 * writes at the 5-minute write price, output at the output price.
 * @example costOfTokens({ input: 1_000, cachedInput: 800, output: 50 }, { input: 2.5, cachedInput: 1.25, output: 10 })
 */
export function costOfTokens(tokens: BilledTokens, prices: TokenPrices): CallCost {
  const cached = Math.max(0, Math.min(tokens.cachedInput ?? 0, tokens.input));
  const written = Math.max(0, Math.min(tokens.cacheWrite ?? 0, tokens.input - cached));
  const cost = priceUsage(
    { input: tokens.input - cached - written, cacheRead: cached, cacheWrite5m: written, cacheWrite1h: 0, output: tokens.output, reasoning: 0 },
    prices,
  );
  return { input: cost.input, cachedInput: cost.cacheRead, cacheWrite: cost.cacheWrite5m, output: cost.output, total: cost.total };
}

/** The sum of costs, part by part. */
export function addCosts(a: CallCost, b: CallCost): CallCost {
  return {
    input: a.input + b.input,
    cachedInput: a.cachedInput + b.cachedInput,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
    total: a.total + b.total,
  };
}

/** No cost: where sums start. */
export const ZERO_COST: Readonly<CallCost> = Object.freeze({ input: 0, cachedInput: 0, cacheWrite: 0, output: 0, total: 0 });
