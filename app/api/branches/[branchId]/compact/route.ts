import { database } from "@/lib/api/database";
import { json, readJsonBody, route, otherMethods } from "@/lib/api/http";
import { compactBranch } from "@/lib/memory";
import { compactBranchSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// `compaction` is null when nothing was due (or nothing is older than the kept rounds).
export const POST = route<{ branchId: string }>(async (request, { branchId }) => {
  const { force, settings } = await readJsonBody(request, compactBranchSchema);
  return json({ compaction: await compactBranch(database(), branchId, { force, settings }) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
