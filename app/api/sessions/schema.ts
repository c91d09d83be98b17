import { sessionFileSchema } from "@/lib/session/schema";

/** `POST /api/sessions`: a session file as `GET /api/sessions/[conversationId]` wrote it. */
export const importSessionSchema = sessionFileSchema;
