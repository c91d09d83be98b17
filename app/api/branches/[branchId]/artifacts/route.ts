import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getArtifactsByBranchId } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Visible artifacts with their summaries, without the contents (GET .../artifacts/<id> has them).
export const GET = route<{ branchId: string }>(async (_request, { branchId }) => {
  const records = await getArtifactsByBranchId(database(), branchId, { inherited: true });
  const artifacts = records.map(({ content: _content, ...header }) => ({ ...header, inherited: header.branchId !== branchId }));
  return json({ artifacts });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
