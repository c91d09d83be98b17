import * as z from "zod";
import { ENCODINGS, isEncodingName, MEDIA_RULES, type EncodingName } from "@/lib/context/light";
import type { ModelEntry } from "./types";

const price = z
  .number({ error: "expected US dollars per million tokens" })
  .nonnegative("a price cannot be negative")
  .max(10_000, "more than $10,000 per million tokens: check the unit");
const tierPrices = {
  input: price,
  output: price,
  cachedInput: price.optional(),
  cacheWrite: price.optional(),
  cacheWrite1h: price.optional(),
  reasoning: price.optional(),
};
const ttl = z.enum(["5m", "1h", "24h"], { error: 'a TTL is "5m", "1h" or "24h"' });
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "expected a date as YYYY-MM-DD");
const source = z.strictObject({
  url: z.string().trim().url("expected the address of the page").max(500),
  takenAt: isoDate,
  note: z.string().trim().max(300).optional(),
});
const figure = z.enum(["input", "output", "cachedInput", "cacheWrite", "cacheWrite1h", "reasoning", "longContext", "caching"]);
const tokens = z.number({ error: "expected a whole number of tokens" }).int("expected a whole number of tokens").positive("must be at least 1");

/** A model's prices (the engine's `TokenPrices`). CC4: every figure added since the first catalogue is optional, so entries saved before read as they did. */
export const pricesSchema = z.strictObject({
  ...tierPrices,
  longContext: z.strictObject({ above: tokens.max(100_000_000), ...tierPrices }).optional(),
});

/** A catalogue entry as a user saves it (the id comes from the URL; origin and date are set on save). */
export const modelEntryInputSchema = z.strictObject({
  label: z.string().trim().min(1, "a label is needed").max(120),
  provider: z.enum(["openai", "anthropic", "google", "deepseek", "meta", "mistral", "qwen", "other"]),
  contextWindow: tokens.max(100_000_000),
  maxOutputTokens: tokens.max(10_000_000),
  tokenizer: z.strictObject({
    encoding: z.custom<EncodingName>(isEncodingName, { message: `use one of ${ENCODINGS.join(", ")}` }),
    exact: z.boolean(),
    note: z.string().trim().max(200).optional(),
  }),
  mediaRule: z.enum(MEDIA_RULES),
  prices: pricesSchema.optional(),
  caching: z
    .strictObject({
      mode: z.enum(["breakpoints", "automatic", "none"]),
      minimumTokens: z.number().int("expected a whole number of tokens").nonnegative().max(1_000_000),
      increment: tokens.max(1_000_000),
      ttls: z.array(ttl).min(1, "name at least one TTL").max(3),
      billsWrites: z.boolean(),
      lookback: tokens.max(1_000).optional(),
    })
    .optional(),
  sources: z.partialRecord(figure, source).optional(),
  aliases: z.array(z.string().trim().min(1).max(120)).max(20).optional(),
});

export type ModelEntryInput = z.infer<typeof modelEntryInputSchema>;

/** A model id as agents send it: no spaces, not empty. */
export const modelIdSchema = z
  .string()
  .trim()
  .min(1, "a model id is needed")
  .max(120)
  .regex(/^[\w.:@/-]+$/, "letters, digits and . _ - : @ / only");

/** The stored entry a user's input becomes. */
export function customEntry(id: string, input: ModelEntryInput, takenAt: string): ModelEntry {
  return { id, ...input, takenAt, origin: "custom" };
}

/** A stored user entry read back; null when it no longer fits the schema (it is then ignored, not trusted). */
export function readCustomEntry(id: string, stored: unknown, updatedAt: string): ModelEntry | null {
  const { takenAt: _takenAt, origin: _origin, id: _id, ...rest } = (typeof stored === "object" && stored !== null ? stored : {}) as Record<string, unknown>;
  const parsed = modelEntryInputSchema.safeParse(rest);
  return parsed.success ? customEntry(id, parsed.data, updatedAt.slice(0, 10)) : null;
}
