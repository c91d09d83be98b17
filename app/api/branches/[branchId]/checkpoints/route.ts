import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getCheckpointsByBranchId } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Own and inherited (visible at the fork) checkpoints, root first; `inherited` marks an ancestor's.
export const GET = route<{ branchId: string }>(async (_request, { branchId }) => {
  const checkpoints = await getCheckpointsByBranchId(database(), branchId, { inherited: true });
  return json({ checkpoints: checkpoints.map((checkpoint) => ({ ...checkpoint, inherited: checkpoint.branchId !== branchId })) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
