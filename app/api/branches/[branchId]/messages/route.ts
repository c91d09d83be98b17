import { database } from "@/lib/api/database";
import { json, readJsonBody, readQuery, route, otherMethods } from "@/lib/api/http";
import { getBranchById, getConversationById, getHistoryByBranchId, type JsonObject } from "@/lib/db";
import { publishAppended } from "@/lib/live";
import { recordMessages } from "@/lib/memory";
import { historyQuerySchema, recordMessagesSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

export const GET = route<Params>(async (request, { branchId }) => {
  const { from, to } = readQuery(request, historyQuerySchema);
  return json({ messages: await getHistoryByBranchId(database(), branchId, { fromPosition: from, toPosition: to }) });
});

// Live turns go through lib/memory: large tool results become artifacts, and the branch compacts when due.
export const POST = route<Params>(async (request, { branchId }) => {
  const { messages, expectedLength, metadata } = await readJsonBody(request, recordMessagesSchema);
  const db = database();
  const result = await recordMessages(db, branchId, messages, { expectedLength, metadata: metadata as JsonObject[] | undefined });
  const branch = await getBranchById(db, branchId);
  publishAppended(await getConversationById(db, branch.conversationId), branchId, result.messages);
  return json(result, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
