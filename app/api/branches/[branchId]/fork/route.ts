import { database } from "@/lib/api/database";
import { json, readJsonBody, route, otherMethods } from "@/lib/api/http";
import { forkBranch } from "@/lib/db";
import { publishBranchCreated } from "@/lib/live";
import { forkBranchSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = route<{ branchId: string }>(async (request, { branchId }) => {
  const { position, name } = await readJsonBody(request, forkBranchSchema);
  const branch = await forkBranch(database(), branchId, { position, name });
  publishBranchCreated(branch);
  return json({ branch }, 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
