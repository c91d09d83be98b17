import type { BilledTokens, CallCost, TokenPrices } from "./types";

const PER_TOKEN = 1 / 1_000_000;

/**
 * What a call costs (RP6): uncached input at the input price, cache reads at
 * the cached price (the input price when there is none), cache writes at the
 * write price (likewise), output at the output price.
 * @example costOfTokens({ input: 1_000, cachedInput: 800, output: 50 }, { input: 2.5, cachedInput: 1.25, output: 10 })
 */
export function costOfTokens(tokens: BilledTokens, prices: TokenPrices): CallCost {
  const cached = Math.max(0, Math.min(tokens.cachedInput ?? 0, tokens.input));
  const written = Math.max(0, Math.min(tokens.cacheWrite ?? 0, tokens.input - cached));
  const fresh = tokens.input - cached - written;
  const cost = {
    input: fresh * prices.input * PER_TOKEN,
    cachedInput: cached * (prices.cachedInput ?? prices.input) * PER_TOKEN,
    cacheWrite: written * (prices.cacheWrite ?? prices.input) * PER_TOKEN,
    output: tokens.output * prices.output * PER_TOKEN,
  };
  return { ...cost, total: cost.input + cost.cachedInput + cost.cacheWrite + cost.output };
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
