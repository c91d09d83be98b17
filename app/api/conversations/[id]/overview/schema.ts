import * as z from "zod";

/** `?branch=<id>`: the branch the overview describes; the root branch without it. */
export const overviewQuerySchema = z.object({ branch: z.string().min(1, "branch must not be empty").optional() });
