import * as z from "zod";
import { settingsChangesSchema } from "@/lib/settings";

export const compactBranchSchema = z.strictObject({
  /** Compact even below the threshold, as long as something is older than the 2 kept rounds. */
  force: z.boolean().optional(),
  /** Overrides of the conversation's stored settings for this call. */
  settings: settingsChangesSchema.optional(),
});
