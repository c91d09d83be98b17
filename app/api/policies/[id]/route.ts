import { database } from "@/lib/api/database";
import { json, noContent, otherMethods, readJsonBody, route } from "@/lib/api/http";
import { deletePolicyById, getPolicyById, updatePolicyById } from "@/lib/db";
import { readStoredPolicy } from "@/lib/policies";
import { updatePolicySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) => {
  const record = await getPolicyById(database(), id);
  return json({ policy: { ...record, policy: readStoredPolicy(record.policy) } });
});

/** Renames a saved policy or replaces its value. */
export const PATCH = route<Params>(async (request, { id }) => {
  const changes = await readJsonBody(request, updatePolicySchema);
  return json({ policy: await updatePolicyById(database(), id, changes) });
});

export const DELETE = route<Params>(async (_request, { id }) => {
  await deletePolicyById(database(), id);
  return noContent();
});

export const { POST, PUT, OPTIONS } = otherMethods("GET", "PATCH", "DELETE");
