import * as z from "zod";
import { SERIALIZE_FORMATS } from "@/lib/import";

export const exportQuerySchema = z.object({
  format: z.enum(SERIALIZE_FORMATS as [string, ...string[]], { error: `format must be one of ${SERIALIZE_FORMATS.join(", ")}` }).default("openai"),
  /** The file itself instead of JSON around it; JSONL is streamed page by page. */
  download: z.enum(["true", "false"], { error: "download is true or false" }).optional(),
});
