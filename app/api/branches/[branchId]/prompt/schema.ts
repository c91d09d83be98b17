import * as z from "zod";
import { toolsSchema } from "@/lib/api/schemas";
import { settingsChangesSchema } from "@/lib/settings";

export const promptQuerySchema = z.strictObject({
  /** A user turn not recorded yet: the request is built as if it were the next message. */
  userTurn: z.string().optional(),
});

export const assemblePromptSchema = z.strictObject({
  userTurn: z.string().optional(),
  /** Overrides of the conversation's stored settings for this request. */
  settings: settingsChangesSchema.optional(),
  /** Instead of the conversation's tools. */
  tools: toolsSchema.optional(),
  /** Default true: compaction may run and persist first (when due, or to fit the budget). */
  compact: z.boolean().optional(),
});
