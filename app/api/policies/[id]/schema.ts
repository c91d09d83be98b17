import * as z from "zod";
import { policyNameSchema, policySchema } from "@/lib/policies";

/** `PATCH /api/policies/[id]`: a new name, a new value, or both. */
export const updatePolicySchema = z
  .strictObject({ name: policyNameSchema.optional(), policy: policySchema.optional() })
  .refine((input) => input.name !== undefined || input.policy !== undefined, { message: "give a name or a policy to change" });
