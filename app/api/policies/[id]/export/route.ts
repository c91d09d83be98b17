import { database } from "@/lib/api/database";
import { json, otherMethods, readQuery, route } from "@/lib/api/http";
import { getPolicyById } from "@/lib/db";
import { loadCatalogue } from "@/lib/models/server";
import { exportPolicy, readStoredPolicy } from "@/lib/policies";
import { exportPolicyQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A saved policy as a file: JSON, or a TypeScript module that makes requests the way it does (PO-7). */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { format } = readQuery(request, exportPolicyQuerySchema);
  const db = database();
  const record = await getPolicyById(db, id);
  return json({ format, ...exportPolicy(record.name, readStoredPolicy(record.policy), format, await loadCatalogue(db)) });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
