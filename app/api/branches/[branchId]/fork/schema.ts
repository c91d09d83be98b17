import * as z from "zod";
import { storedCount } from "@/lib/api/schemas";

export const forkBranchSchema = z.strictObject({
  position: z.number({ error: "position is required: how many history messages the new branch inherits" }).pipe(storedCount),
  name: z.string().trim().min(1, "name must not be empty").max(200).optional(),
});
