import { database } from "@/lib/api/database";
import { otherMethods, route } from "@/lib/api/http";
import { exportSession } from "@/lib/db";
import { fileStem } from "@/lib/policies";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The whole session of a conversation as one JSON file (`POST /api/sessions` imports it back). */
export const GET = route<{ conversationId: string }>(async (_request, { conversationId }) => {
  const file = await exportSession(database(), conversationId);
  const name = fileStem(file.conversation.title, "conversation");
  return Response.json(file, { headers: { "content-disposition": `attachment; filename="${name}.session.json"` } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
