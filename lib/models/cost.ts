import { costOfTokens, type BilledTokens, type CallCost } from "@/lib/context/light";
import type { ModelEntry } from "./types";

export type { BilledTokens, CallCost };

/** What a call costs with a model's prices (the engine's arithmetic); null when the model has no prices. */
export function costOfCall(tokens: BilledTokens, model: Pick<ModelEntry, "prices">): CallCost | null {
  return model.prices ? costOfTokens(tokens, model.prices) : null;
}
