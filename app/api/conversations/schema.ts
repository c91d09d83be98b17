import * as z from "zod";
import { settingsChangesSchema } from "@/lib/settings";
import { messagesSchema, queryInteger, toolsSchema } from "@/lib/api/schemas";

export const createConversationSchema = z.strictObject({
  title: z.string({ error: "title is required" }).trim().min(1, "title must not be empty").max(500),
  messages: messagesSchema.optional(),
  tools: toolsSchema.nullable().optional(),
  settings: settingsChangesSchema.optional(),
});

export const listConversationsQuerySchema = z.object({
  limit: queryInteger.min(1, "must be at least 1").max(500, "must be at most 500").default(100),
  offset: queryInteger.default(0),
});
