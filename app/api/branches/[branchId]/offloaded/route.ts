import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getOffloadedContentsByBranchId } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// What the branch can reload, without the contents (GET .../offloaded/<handle> has them).
export const GET = route<{ branchId: string }>(async (_request, { branchId }) => {
  const records = await getOffloadedContentsByBranchId(database(), branchId, { inherited: true });
  const offloaded = records.map(({ content: _content, ...header }) => ({ ...header, inherited: header.branchId !== branchId }));
  return json({ offloaded });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
