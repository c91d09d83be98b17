import { costOfTokens, priceUsage, type BilledTokens, type CallCost, type UsageCost, type UsageTokens } from "@/lib/context/light";
import type { ModelEntry, ModelPrices } from "./types";

export type { BilledTokens, CallCost, UsageCost, UsageTokens };

/**
 * The prices a model's calls are costed with (CC-2): its own, with the cache
 * figures an Anthropic entry leaves out (one saved before they existed)
 * taken from Anthropic's published multipliers of the input price: reads
 * 0.1×, 5-minute writes 1.25×, 1-hour writes 2×. Null without prices.
 */
export function pricesOf(model: Pick<ModelEntry, "prices" | "provider">): ModelPrices | null {
  const prices = model.prices;
  if (prices === undefined) return null;
  if (model.provider !== "anthropic") return prices;
  return {
    ...prices,
    cachedInput: prices.cachedInput ?? prices.input * 0.1,
    cacheWrite: prices.cacheWrite ?? prices.input * 1.25,
    cacheWrite1h: prices.cacheWrite1h ?? prices.input * 2,
  };
}

/** What a call with this usage costs on this model, part by part (CC-1); null when the model has no prices. */
export function costOfUsage(usage: UsageTokens, model: Pick<ModelEntry, "prices" | "provider">): UsageCost | null {
  const prices = pricesOf(model);
  return prices === null ? null : priceUsage(usage, prices);
}

/** What a call costs with a model's prices (the engine's arithmetic); null when the model has no prices. */
export function costOfCall(tokens: BilledTokens, model: Pick<ModelEntry, "prices">): CallCost | null {
  return model.prices ? costOfTokens(tokens, model.prices) : null;
}
