import * as z from "zod";
import { settingsChangesSchema } from "@/lib/settings";
import { toolsSchema } from "@/lib/api/schemas";

export const updateConversationSchema = z.strictObject({
  title: z.string().trim().min(1, "title must not be empty").max(500).optional(),
  settings: settingsChangesSchema.optional(),
  tools: toolsSchema.nullable().optional(),
});
