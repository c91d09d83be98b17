import * as z from "zod";

export const checkpointDiffQuerySchema = z.object({
  from: z.string({ error: "from is required: the earlier checkpoint's id" }).min(1),
  to: z.string({ error: "to is required: the later checkpoint's id" }).min(1),
});
