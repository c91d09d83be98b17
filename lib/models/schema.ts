import * as z from "zod";
import { ENCODINGS, isEncodingName, type EncodingName } from "@/lib/context/light";
import type { ModelEntry } from "./types";

const price = z
  .number({ error: "expected US dollars per million tokens" })
  .nonnegative("a price cannot be negative")
  .max(10_000, "more than $10,000 per million tokens: check the unit");
const tokens = z.number({ error: "expected a whole number of tokens" }).int("expected a whole number of tokens").positive("must be at least 1");

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
  mediaRule: z.enum(["openai", "anthropic", "gemini"]),
  prices: z.strictObject({ input: price, output: price, cachedInput: price.optional(), cacheWrite: price.optional() }).optional(),
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
