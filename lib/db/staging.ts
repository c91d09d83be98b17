import "server-only";
import type { Database } from "./client";
import { runQuery, runTransaction } from "./run";

/**
 * Stage and publish: a large write (an import) creates its conversations
 * with a `source` of `staging:<id>`, fills them in short transactions that
 * let other requests through, and publishes them all in one last
 * transaction by giving each its real source. Lists never show staged
 * conversations, and a staged one left by a crash is deleted by the next
 * cleanup, so a write is seen whole or not at all.
 */
export const STAGING_SOURCE_PREFIX = "staging:";

type Active = Set<string>;
const globalForStaging = globalThis as typeof globalThis & { __contextLabActiveStaging?: Active };

function active(): Active {
  return (globalForStaging.__contextLabActiveStaging ??= new Set());
}

/** A fresh staging source, marked as in use by this process until `endStaging`. */
export function beginStaging(): string {
  const source = `${STAGING_SOURCE_PREFIX}${crypto.randomUUID()}`;
  active().add(source);
  return source;
}

export function endStaging(source: string): void {
  active().delete(source);
}

/** Prisma filter leaving staged conversations out of lists. */
export const PUBLISHED_ONLY = { NOT: { source: { startsWith: STAGING_SOURCE_PREFIX } } } as const;

/** Gives each staged conversation its real source in one transaction: they appear together. */
export async function publishStagedConversations(db: Database, published: readonly { id: string; source: string }[]): Promise<void> {
  await runTransaction(db, async (tx) => {
    const now = new Date();
    for (const { id, source } of published) await tx.conversation.update({ where: { id }, data: { source, updatedAt: now } });
  });
}

/** Deletes every staged conversation of `source` (a failed write), or of no write this process runs (one a crash left). */
export async function deleteStagedConversations(db: Database, source?: string): Promise<number> {
  const where = source === undefined ? { source: { startsWith: STAGING_SOURCE_PREFIX, notIn: [...active()] } } : { source };
  return runQuery(db, async () => (await db.conversation.deleteMany({ where })).count);
}
