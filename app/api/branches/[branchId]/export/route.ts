import { database } from "@/lib/api/database";
import { json, otherMethods, readQuery, route } from "@/lib/api/http";
import { getBranchById, getConversationById, getHistoryByBranchId, type Database, type MessageRecord } from "@/lib/db";
import { callFactsOf } from "@/lib/formats";
import { serializeConversation, serializeConversationPieces, type SerializeFormat } from "@/lib/import";
import { escapeJsonText, streamText } from "@/lib/api/stream-text";
import { fileStem } from "@/lib/policies";
import { MESSAGE_PAGE_LIMIT } from "../messages/schema";
import { exportQuerySchema } from "./schema";

/** Each message's call facts, which JSONL writes on its line. */
const factsOf = (records: readonly MessageRecord[]) => records.map((record) => callFactsOf(record.metadata));

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * JSONL as a download, written page by page (one history read of at most
 * 1,000 messages at a time): a branch of any length streams in bounded memory.
 */
function streamJsonl(db: Database, branchId: string, filename: string): Response {
  const encoder = new TextEncoder();
  let from = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await getHistoryByBranchId(db, branchId, { fromPosition: from, toPosition: from + MESSAGE_PAGE_LIMIT });
      if (page.length > 0)
        controller.enqueue(
          encoder.encode(
            serializeConversation(
              page.map((record) => record.message),
              "jsonl",
              { facts: factsOf(page) },
            ).text,
          ),
        );
      from += page.length;
      if (page.length < MESSAGE_PAGE_LIMIT) controller.close();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` },
  });
}

/**
 * The branch's history (and the conversation's tools) in a wire format, with
 * what the format could not hold; with `download=true` the file itself
 * (JSONL streamed; the warnings are in the JSON form).
 */
export const GET = route<{ branchId: string }>(async (request, { branchId }) => {
  const query = readQuery(request, exportQuerySchema);
  const format = query.format as SerializeFormat;
  const db = database();
  const branch = await getBranchById(db, branchId);
  const conversation = await getConversationById(db, branch.conversationId);
  const extension = format === "jsonl" ? "jsonl" : "json";
  const filename = `${fileStem(conversation.title, "conversation")}.${format}.${extension}`;
  if (query.download === "true" && format === "jsonl") return streamJsonl(db, branchId, filename);
  const history = await getHistoryByBranchId(db, branchId);
  const messages = history.map((record) => record.message);
  const options = { tools: conversation.tools ?? undefined, facts: factsOf(history) };
  if (format === "jsonl") return json({ format, filename, ...serializeConversation(messages, format, options) });
  // RL-ST7: the document is written as it is serialised; the JSON form is the object `json()` would write, its text escaped piece by piece.
  const { pieces, warnings } = serializeConversationPieces(messages, format, options);
  if (query.download === "true")
    return streamText(pieces, { headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="${filename}"` } });
  return streamText(pieces, {
    headers: { "content-type": "application/json" },
    head: `${JSON.stringify({ format, filename }).slice(0, -1)},"text":"`,
    transform: escapeJsonText,
    tail: `","warnings":${JSON.stringify(warnings)}}`,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
