import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getAncestryByBranchId, getBranchById } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ branchId: string }>(async (_request, { branchId }) => {
  const db = database();
  const branch = await getBranchById(db, branchId);
  const ancestry = await getAncestryByBranchId(db, branchId);
  return json({ branch, ancestry });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
