import * as z from "zod";
import { policyNameSchema, policySchema } from "@/lib/policies";

/** `GET /api/policies`: the global policies, and a conversation's with `conversationId`. */
export const listPoliciesQuerySchema = z.object({ conversationId: z.string().min(1, "conversationId must not be empty").optional() });

/** `POST /api/policies`: a named policy for one conversation, or global without `conversationId`. */
export const createPolicySchema = z.strictObject({
  name: policyNameSchema,
  conversationId: z.string().min(1, "conversationId must not be empty").nullable().optional(),
  policy: policySchema,
});
