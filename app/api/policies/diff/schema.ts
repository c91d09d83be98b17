import * as z from "zod";

/** `GET /api/policies/diff?from=&to=`: two saved policies' ids. */
export const diffQuerySchema = z.object({
  from: z.string({ error: "from: give a policy id" }).min(1, "from: give a policy id"),
  to: z.string({ error: "to: give a policy id" }).min(1, "to: give a policy id"),
});
