import * as z from "zod";

export const searchQuerySchema = z.object({
  q: z.string({ error: "q is required: what to search the branch's summaries and artifacts for" }).trim().min(1, "q must not be empty"),
  limit: z.coerce.number({ error: "expected a whole number" }).int("expected a whole number").min(1).max(50).optional(),
});
