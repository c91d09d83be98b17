import { database } from "@/lib/api/database";
import { json, otherMethods, readQuery, route } from "@/lib/api/http";
import { getPolicyById } from "@/lib/db";
import { diffPolicies, readStoredPolicy } from "@/lib/policies";
import { diffQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The fields where the second saved policy differs from the first (PO-3). */
export const GET = route(async (request) => {
  const query = readQuery(request, diffQuerySchema);
  const db = database();
  const [from, to] = await Promise.all([getPolicyById(db, query.from), getPolicyById(db, query.to)]);
  return json({ from: from.id, to: to.id, differences: diffPolicies(readStoredPolicy(from.policy), readStoredPolicy(to.policy)) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
