import { database } from "@/lib/api/database";
import { json, route, otherMethods } from "@/lib/api/http";
import { getArtifactById } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ branchId: string; artifactId: string }>(async (_request, { branchId, artifactId }) => {
  return json({ artifact: await getArtifactById(database(), branchId, artifactId) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
