import * as z from "zod";
import { AUTOMATION_MODES, ENCODINGS, MAX_COMPARED_POLICIES, PROCESSOR_KINDS } from "@/lib/context";
import { toolsSchema } from "@/lib/api/schemas";
import { processorTuningSchema } from "@/lib/settings";

const count = (minimum: number) => z.number().int().min(minimum);
const nullableCount = (minimum: number) => count(minimum).nullable();

/** A RequestPolicy as JSON. */
export const requestPolicySchema = z.strictObject({
  mode: z.enum(AUTOMATION_MODES),
  historyRounds: count(1),
  summaryThreshold: nullableCount(0),
  offloadThreshold: nullableCount(0),
  maxMessageSize: count(1),
  maxToolResultSize: count(1),
  processors: z.array(z.strictObject({ kind: z.enum(PROCESSOR_KINDS), enabled: z.boolean() })),
  model: z.string().min(1),
  encoding: z.enum(ENCODINGS),
  contextWindow: count(1),
  maxOutputTokens: count(0),
  tokenBudget: nullableCount(0),
  reloadTool: z.boolean(),
  retrievedMemories: count(0),
  /** The strategy processors' settings (ST5); the engine checks the values again (CS5). */
  tuning: processorTuningSchema.optional(),
});

const pricesSchema = z.strictObject({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
});

export const replayBodySchema = z.strictObject({
  /** Compared with raw (RP9), in this order. */
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
