import * as z from "zod";

const toolResultSchema = z.strictObject({
  tool_call_id: z.string({ error: "tool_call_id must be the id of the pending tool call this result answers" }).min(1, "tool_call_id must not be empty"),
  // A result is text; JSON pasted as a value is kept as its JSON text.
  content: z
    .union([z.string(), z.json()], { error: "content must be the tool's result as text or JSON" })
    .transform((value) => (typeof value === "string" ? value : JSON.stringify(value))),
});

/** The body of `POST /api/branches/[branchId]/chat`. */
export const chatRequestSchema = z.strictObject({
  userTurn: z
    .string({ error: "userTurn must be the user's message as text" })
    .refine((text) => text.trim() !== "", "the user turn is empty: type what the user says")
    .optional(),
  toolResults: z.array(toolResultSchema).min(1, "give at least one tool result, or leave toolResults out").optional(),
  /** Default true: an event stream; false: one JSON answer. */
  stream: z.boolean().optional(),
});

export type ChatRequestBody = z.output<typeof chatRequestSchema>;
