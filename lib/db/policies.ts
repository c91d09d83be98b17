import "server-only";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import type { Policy as PolicyRow } from "./generated/sqlite/client";
import { fromJsonText, toJsonObjectText, type JsonObject } from "./json";
import { isRecordNotFound, runQuery } from "./run";

/** A named policy as route handlers return it. */
export interface PolicyRecord {
  id: string;
  /** The conversation it belongs to; null: every conversation's. */
  conversationId: string | null;
  name: string;
  /** The policy part of settings, as saved (validated by the caller). */
  policy: JsonObject;
  createdAt: string;
  updatedAt: string;
}

export interface CreatePolicyOptions {
  conversationId?: string | null;
  name: string;
  policy: object;
}

export interface UpdatePolicyOptions {
  name?: string;
  policy?: object;
}

export function toPolicyRecord(row: PolicyRow): PolicyRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    name: row.name,
    policy: fromJsonText<JsonObject>(row.policy),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function requireConversation(db: Database, conversationId: string): Promise<void> {
  const found = await db.conversation.findUnique({ where: { id: conversationId }, select: { id: true } });
  if (!found) throw new NotFoundError("conversation", conversationId);
}

/** Saves a named policy for one conversation, or for all (no `conversationId`). */
export async function createPolicy(db: Database, options: CreatePolicyOptions): Promise<PolicyRecord> {
  const policy = toJsonObjectText(options.policy, "policy");
  return runQuery(db, async () => {
    if (options.conversationId) await requireConversation(db, options.conversationId);
    const row = await db.policy.create({ data: { conversationId: options.conversationId ?? null, name: options.name, policy } });
    return toPolicyRecord(row);
  });
}

/** The global policies, and with `conversationId` that conversation's too: global first, then by name. */
export async function getPolicies(db: Database, options: { conversationId?: string } = {}): Promise<PolicyRecord[]> {
  return runQuery(db, async () => {
    if (options.conversationId) await requireConversation(db, options.conversationId);
    const rows = await db.policy.findMany({
      where: options.conversationId ? { OR: [{ conversationId: null }, { conversationId: options.conversationId }] } : { conversationId: null },
      orderBy: [{ name: "asc" }, { createdAt: "asc" }],
    });
    return rows.map(toPolicyRecord).sort((a, b) => Number(a.conversationId !== null) - Number(b.conversationId !== null));
  });
}

export async function getPolicyById(db: Database, id: string): Promise<PolicyRecord> {
  return runQuery(db, async () => {
    const row = await db.policy.findUnique({ where: { id } });
    if (!row) throw new NotFoundError("policy", id);
    return toPolicyRecord(row);
  });
}

/** Renames a policy or replaces its value. */
export async function updatePolicyById(db: Database, id: string, options: UpdatePolicyOptions): Promise<PolicyRecord> {
  const data = {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.policy !== undefined ? { policy: toJsonObjectText(options.policy, "policy") } : {}),
  };
  return runQuery(db, async () => {
    try {
      return toPolicyRecord(await db.policy.update({ where: { id }, data }));
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("policy", id);
      throw error;
    }
  });
}

export async function deletePolicyById(db: Database, id: string): Promise<void> {
  await runQuery(db, async () => {
    try {
      await db.policy.delete({ where: { id } });
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("policy", id);
      throw error;
    }
  });
}
