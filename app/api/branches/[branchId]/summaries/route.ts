import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getSummariesByBranchId } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// The summary chain the branch sees, oldest first; `inherited` marks an ancestor's link.
export const GET = route<{ branchId: string }>(async (_request, { branchId }) => {
  const summaries = await getSummariesByBranchId(database(), branchId, { inherited: true });
  return json({ summaries: summaries.map((summary) => ({ ...summary, inherited: summary.branchId !== branchId })) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
