import { database } from "@/lib/api/database";
import { json, readQuery, route, otherMethods } from "@/lib/api/http";
import { retrieveRelevant } from "@/lib/memory";
import { searchQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = route<{ branchId: string }>(async (request, { branchId }) => {
  const { q, limit } = readQuery(request, searchQuerySchema);
  return json({ hits: await retrieveRelevant(database(), branchId, q, { limit }) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
