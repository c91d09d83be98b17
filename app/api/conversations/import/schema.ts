import * as z from "zod";
import { IMPORT_FORMATS } from "@/lib/import";

export const importQuerySchema = z.object({
  filename: z.string().min(1).optional(),
  format: z.enum(["auto", ...IMPORT_FORMATS] as [string, ...string[]], { error: `format must be auto, ${IMPORT_FORMATS.join(", ")}` }).optional(),
  title: z.string().trim().min(1).max(500).optional(),
  conversation: z
    .union([z.literal("all"), z.coerce.number().int().nonnegative()], { error: "conversation must be 'all' or a conversation index (0, 1, ...)" })
    .optional(),
});
