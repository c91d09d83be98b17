import { database } from "@/lib/api/database";
import { json, readJsonBody, readQuery, route, otherMethods } from "@/lib/api/http";
import { MAX_STORED_INTEGER } from "@/lib/api/json-input";
import { getBranchById, getConversationById, getHistoryByBranchId, type JsonObject } from "@/lib/db";
import { publishAppended } from "@/lib/live";
import { recordMessages } from "@/lib/memory";
import { historyQuerySchema, MESSAGE_PAGE_LIMIT, recordMessagesSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

/**
 * A page of the branch's history from `from` (default 0), at most `limit`
 * messages (default and maximum 1,000), never past `to`; `next` is where the
 * following page starts, null after the last one.
 */
export const GET = route<Params>(async (request, { branchId }) => {
  const { from = 0, to, limit = MESSAGE_PAGE_LIMIT } = readQuery(request, historyQuerySchema);
  // One more than the page: whether another page follows, without counting the branch; never past what a position column holds (BD-4).
  const end = Math.min(to ?? Number.POSITIVE_INFINITY, from + limit + 1, MAX_STORED_INTEGER);
  const read = await getHistoryByBranchId(database(), branchId, { fromPosition: from, toPosition: end });
  const messages = read.slice(0, limit);
  return json({ messages, next: read.length > limit ? from + limit : null });
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
