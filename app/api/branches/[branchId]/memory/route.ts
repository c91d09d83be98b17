import { database } from "@/lib/api/database";
import { json, otherMethods, route } from "@/lib/api/http";
import { getBranchScope } from "@/lib/db";
import { loadMemorySnapshot } from "@/lib/request/server";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { branchId: string };

/** The branch's persisted memory as the request builder reads it: summary chain, covered system messages, artifact outlines. */
export const GET = route<Params>(async (_request, { branchId }) => {
  const db = database();
  const scope = await getBranchScope(db, branchId);
  return json(await loadMemorySnapshot(db, scope, scope.branch.length));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
