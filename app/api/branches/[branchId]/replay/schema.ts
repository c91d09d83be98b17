import * as z from "zod";
import { MAX_COMPARED_POLICIES } from "@/lib/context";
import { toolsSchema } from "@/lib/api/schemas";
import { pricesSchema } from "@/lib/models";
import { requestPolicySchema } from "@/lib/settings";

export const replayBodySchema = z.strictObject({
  /** Compared with raw (E-RP9), in this order. */
  policies: z
    .array(z.strictObject({ id: z.string().min(1).max(64), label: z.string().min(1).max(120), policy: requestPolicySchema }))
    .min(1, "give at least one policy to compare with raw")
    .max(MAX_COMPARED_POLICIES, `at most ${MAX_COMPARED_POLICIES} policies besides raw`),
  /** US dollars per million tokens; absent: the catalogue's prices of the first policy's model; null: no costs. */
  prices: pricesSchema.nullable().optional(),
  /** Instead of the conversation's tools. */
  tools: toolsSchema.optional(),
  /** Send each call's request messages back (default false: figures only). */
  keepMessages: z.boolean().optional(),
});
