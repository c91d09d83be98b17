import * as z from "zod";

export const forkBranchSchema = z.strictObject({
  position: z.number({ error: "position is required: how many history messages the new branch inherits" }).int().nonnegative(),
  name: z.string().trim().min(1, "name must not be empty").max(200).optional(),
});
