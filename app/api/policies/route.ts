import { database } from "@/lib/api/database";
import { json, otherMethods, readJsonBody, readQuery, route } from "@/lib/api/http";
import { createPolicy, getPolicies } from "@/lib/db";
import { readStoredPolicy } from "@/lib/policies";
import { createPolicySchema, listPoliciesQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The global policies, and a conversation's own with `?conversationId=`, each read back in the current shape. */
export const GET = route(async (request) => {
  const { conversationId } = readQuery(request, listPoliciesQuerySchema);
  const policies = await getPolicies(database(), { conversationId });
  return json({ policies: policies.map((record) => ({ ...record, policy: readStoredPolicy(record.policy) })) });
});

/** Saves a named policy. */
export const POST = route(async (request) => {
  const input = await readJsonBody(request, createPolicySchema);
  const policy = await createPolicy(database(), { conversationId: input.conversationId ?? null, name: input.name, policy: input.policy });
  return json({ policy }, 201);
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
