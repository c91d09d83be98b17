import type { TierPrices, TokenPrices, UsageCost, UsageTokens } from "./types";

const PER_TOKEN = 1 / 1_000_000;

/** Every input token of a call: uncached, read and written. */
export function promptTokensOfUsage(usage: UsageTokens): number {
  return usage.input + usage.cacheRead + usage.cacheWrite5m + usage.cacheWrite1h;
}

/** CC3: a prompt over the long-context threshold prices every part of the call at that tier. */
function tierOf(prompt: number, prices: TokenPrices): { tier: TierPrices; longContext: boolean } {
  const long = prices.longContext;
  return long !== undefined && prompt > long.above ? { tier: long, longContext: true } : { tier: prices, longContext: false };
}

/**
 * The one price computation (CC-1, CC-2): uncached input at the input price,
 * cache reads at the cached price, 5-minute and 1-hour writes at their
 * write prices, output at the output price and reasoning tokens (part of
 * output) at the reasoning price; each missing figure falls back as CC2 says.
 * @example priceUsage({ input: 10, cacheRead: 900, cacheWrite5m: 0, cacheWrite1h: 2_000, output: 50, reasoning: 0 }, { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 })
 */
export function priceUsage(usage: UsageTokens, prices: TokenPrices): UsageCost {
  const { tier, longContext } = tierOf(promptTokensOfUsage(usage), prices);
  const write5m = tier.cacheWrite ?? tier.input;
  const reasoning = Math.max(0, Math.min(usage.reasoning, usage.output));
  const cost = {
    input: usage.input * tier.input * PER_TOKEN,
    cacheRead: usage.cacheRead * (tier.cachedInput ?? tier.input) * PER_TOKEN,
    cacheWrite5m: usage.cacheWrite5m * write5m * PER_TOKEN,
    cacheWrite1h: usage.cacheWrite1h * (tier.cacheWrite1h ?? write5m) * PER_TOKEN,
    output: (usage.output - reasoning) * tier.output * PER_TOKEN,
    reasoning: reasoning * (tier.reasoning ?? tier.output) * PER_TOKEN,
  };
  const total = cost.input + cost.cacheRead + cost.cacheWrite5m + cost.cacheWrite1h + cost.output + cost.reasoning;
  return { ...cost, total, longContext };
}

/** No tokens: where sums of usage start. */
export const ZERO_USAGE_TOKENS: Readonly<UsageTokens> = Object.freeze({ input: 0, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, output: 0, reasoning: 0 });

/** The sum of two usages, part by part. */
export function addUsageTokens(a: UsageTokens, b: UsageTokens): UsageTokens {
  return {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m,
    cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
  };
}
