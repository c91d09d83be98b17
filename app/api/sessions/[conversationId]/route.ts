import { database } from "@/lib/api/database";
import { otherMethods, readQuery, route } from "@/lib/api/http";
import { exportSession } from "@/lib/db";
import { fileStem } from "@/lib/policies";
import { exportSessionQuerySchema } from "../schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Lines are sent in chunks of about this many characters. */
const CHUNK_CHARACTERS = 64 * 1024;

/**
 * The whole session of a conversation as a file of JSON lines, streamed as it is read (`POST /api/sessions`
 * imports it back): request bodies as deltas, or left out with `?requests=omitted`.
 */
export const GET = route<{ conversationId: string }>(async (request, { conversationId }) => {
  const { requests } = readQuery(request, exportSessionQuerySchema);
  const { title, lines } = await exportSession(database(), conversationId, { requests });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = "";
      try {
        for (let next = await lines.next(); ; next = await lines.next()) {
          if (next.done) {
            if (chunk !== "") controller.enqueue(encoder.encode(chunk));
            controller.close();
            return;
          }
          chunk += next.value;
          if (chunk.length >= CHUNK_CHARACTERS) break;
        }
      } catch (error) {
        // The status is sent already: the file ends without its end line, which the import refuses (SE-5).
        console.error(`session export of conversation ${conversationId} failed`, error);
        controller.error(error);
        return;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await lines.return();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${fileStem(title, "conversation")}.session.jsonl"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
