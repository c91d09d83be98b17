import { database } from "@/lib/api/database";
import { json, otherMethods, route } from "@/lib/api/http";
import { getBranchScope, getConversationById } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { openingOf } from "@/lib/playground/first-result";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

/**
 * What the workspace opens a branch with, as its page carries it: the branch, its conversation, its first
 * screen and the first pipeline result built on the server (null: the worker builds it).
 */
export const GET = route<Params>(async (_request, { branchId }) => {
  const db = database();
  const scope = await getBranchScope(db, branchId);
  const [conversation, catalogue] = await Promise.all([getConversationById(db, scope.branch.conversationId), loadCatalogue(db)]);
  const { records, result } = await openingOf(db, { conversation, scope, catalogue });
  return json({ branch: scope.branch, conversation, records, result });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
