import * as z from "zod";
import { SESSION_REQUESTS } from "@/lib/session/lines";

/** `GET /api/sessions/[conversationId]`: `?requests=omitted` leaves the calls' request bodies out. */
export const exportSessionQuerySchema = z.strictObject({
  requests: z.enum(SESSION_REQUESTS, { error: `requests must be ${SESSION_REQUESTS.join(" or ")}` }).optional(),
});
