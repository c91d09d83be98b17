import * as z from "zod";
import { POLICY_EXPORT_FORMATS } from "@/lib/policies";

export const exportPolicyQuerySchema = z.object({
  format: z.enum(POLICY_EXPORT_FORMATS, { error: `format must be one of ${POLICY_EXPORT_FORMATS.join(", ")}` }).default("json"),
});
