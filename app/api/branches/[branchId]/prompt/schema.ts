import * as z from "zod";
import { settingsOverridesSchema, toolsSchema } from "@/lib/api/schemas";

export const promptQuerySchema = z.object({
  userTurn: z.string().optional(),
});

export const assemblePromptSchema = z.strictObject({
  userTurn: z.string().optional(),
  /** Overrides of the conversation's stored settings for this call. */
  settings: settingsOverridesSchema.optional(),
  /** Instead of the conversation's tools. */
  tools: toolsSchema.optional(),
  /** Default true: compaction may run and persist first. */
  compact: z.boolean().optional(),
});
