import * as z from "zod";

export const callsQuerySchema = z.object({
  after: z.string().min(1, "after must be a call id").optional(),
  limit: z.coerce.number({ error: "expected a whole number" }).int("expected a whole number").min(1).max(200).optional(),
  failed: z.enum(["true", "false"], { error: "failed must be true or false" }).optional(),
});
