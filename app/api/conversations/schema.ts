import * as z from "zod";
import { settingsChangesSchema } from "@/lib/settings";
import { messagesSchema, toolsSchema } from "@/lib/api/schemas";
import { libraryQuerySchema } from "@/lib/library/query";

export const createConversationSchema = z.strictObject({
  title: z.string({ error: "title is required" }).trim().min(1, "title must not be empty").max(500),
  messages: messagesSchema.optional(),
  tools: toolsSchema.nullable().optional(),
  settings: settingsChangesSchema.optional(),
});

/** LB5: the library's query, one schema for this route and the home page. */
export const listConversationsQuerySchema = libraryQuerySchema;
