import * as z from "zod";

/** A session file as the list names it: its absolute, real path. */
export const sessionPathSchema = z
  .string({ error: "path must be the path of a session file the Local agents page lists" })
  .min(1, { error: "path must not be empty" })
  .max(4096, { error: "path is longer than any session file's path" });

/** What to stop following: a file, or whatever file a conversation follows. */
export const followTargetSchema = z
  .object({ path: sessionPathSchema.optional(), conversationId: z.string().min(1).max(200).optional() })
  .refine((target) => target.path !== undefined || target.conversationId !== undefined, {
    error: "give the path of the file to stop following, or the conversationId",
    path: ["path"],
  });
