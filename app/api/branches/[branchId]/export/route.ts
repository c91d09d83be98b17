import { database } from "@/lib/api/database";
import { json, readQuery, route } from "@/lib/api/http";
import { getBranchById, getConversationById, getHistoryByBranchId } from "@/lib/db";
import { serializeConversation, type SerializeFormat } from "@/lib/import";
import { exportQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The branch's history (and the conversation's tools) in a wire format, with what the format could not hold. */
export const GET = route<{ branchId: string }>(async (request, { branchId }) => {
  const format = readQuery(request, exportQuerySchema).format as SerializeFormat;
  const db = database();
  const branch = await getBranchById(db, branchId);
  const conversation = await getConversationById(db, branch.conversationId);
  const history = await getHistoryByBranchId(db, branchId);
  const { text, warnings } = serializeConversation(
    history.map((record) => record.message),
    format,
    { tools: conversation.tools ?? undefined },
  );
  const extension = format === "jsonl" ? "jsonl" : "json";
  const name = conversation.title.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "conversation";
  return json({ format, filename: `${name}.${format}.${extension}`, text, warnings });
});
