import * as z from "zod";

export const costQuerySchema = z.object({
  subagents: z.enum(["true", "false"], { error: "subagents must be true or false" }).optional(),
});
