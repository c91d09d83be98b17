import type { ModelEntry } from "./types";

/** Tokens of one call as a provider bills them. */
export interface BilledTokens {
  /** Every input token, cached ones included. */
  input: number;
  output: number;
  /** Of `input`, those read from the prompt cache. */
  cachedInput?: number;
  /** Of `input`, those written to the prompt cache. */
  cacheWrite?: number;
}

/** A call's cost in US dollars, split as billed; null when the model has no prices. */
export interface CallCost {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
  total: number;
}

const PER_TOKEN = 1 / 1_000_000;

/**
 * What a call costs with a model's prices: uncached input at the input price,
 * cache reads at the cached price (the input price when the model has none),
 * cache writes at the write price (likewise), output at the output price.
 */
export function costOfCall(tokens: BilledTokens, model: Pick<ModelEntry, "prices">): CallCost | null {
  const prices = model.prices;
  if (!prices) return null;
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
