import "server-only";
import type { Database } from "./client";
import { ConflictError } from "./errors";
import { runQuery, runTransaction } from "./run";

/**
 * Stage and publish: a large write (an import) creates its conversations
 * with a `source` of `staging:<id>`, fills them in short transactions that
 * let other requests through, and publishes them all in one last
 * transaction by giving each its real source. Lists never show staged
 * conversations, so a write is seen whole or not at all.
 *
 * IN-1: a staging holds a lease. While it runs, its staged conversations'
 * `updatedAt` is renewed every quarter of the lease; a clean-up deletes only
 * staged conversations not renewed for a whole lease (a crashed or killed
 * import), never one that another process is still writing.
 */
export const STAGING_SOURCE_PREFIX = "staging:";

/** How long a staged conversation outlives its last renewal; `CONTEXT_LAB_STAGING_LEASE_MS` overrides it. */
export const DEFAULT_STAGING_LEASE_MS = 120_000;

/** The lease in force: the environment's when it is a positive integer, else the default. */
export function stagingLeaseMs(): number {
  const configured = Number(process.env.CONTEXT_LAB_STAGING_LEASE_MS);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_STAGING_LEASE_MS;
}

export interface Staging {
  /** The `source` every conversation of this write is created with. */
  source: string;
  /** Stops renewing the lease: call it once the write is published or deleted. */
  end(): void;
}

/** Marks the staged conversations of `source` as alive now. */
export async function renewStaging(db: Database, source: string): Promise<number> {
  return runQuery(db, async () => (await db.conversation.updateMany({ where: { source }, data: { updatedAt: new Date() } })).count);
}

/** A fresh staging source whose lease is renewed until `end()`. */
export function beginStaging(db: Database): Staging {
  const source = `${STAGING_SOURCE_PREFIX}${crypto.randomUUID()}`;
  // A renewal still running when the next is due is not joined by another: on a slow database they would pile up.
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing) return;
      renewing = true;
      renewStaging(db, source)
        .catch((error: unknown) => {
          console.error(`[db] the lease of staging ${source} could not be renewed; it is retried in a moment:`, error);
        })
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(10, Math.floor(stagingLeaseMs() / 4)),
  );
  // A renewal never keeps the process alive.
  timer.unref();
  return { source, end: () => clearInterval(timer) };
}

/** Prisma filter leaving staged conversations out of lists. */
export const PUBLISHED_ONLY = { NOT: { source: { startsWith: STAGING_SOURCE_PREFIX } } } as const;

/**
 * Gives each staged conversation of `staging` its real source in one
 * transaction: they appear together. A conversation no longer staged (deleted
 * as abandoned after its lease ran out) fails the whole publication.
 */
export async function publishStagedConversations(db: Database, staging: string, published: readonly { id: string; source: string }[]): Promise<void> {
  await runTransaction(db, async (tx) => {
    const now = new Date();
    for (const { id, source } of published) {
      const { count } = await tx.conversation.updateMany({ where: { id, source: staging }, data: { source, updatedAt: now } });
      if (count === 0) {
        throw new ConflictError(
          "conversation",
          `staged conversation '${id}' is gone: its lease of ${stagingLeaseMs()} ms ran out and a clean-up deleted it as abandoned; import again`,
        );
      }
    }
  });
}

/** Deletes the staged conversations of `source` (a failed write): only its own. */
export async function deleteStagedConversations(db: Database, source: string): Promise<number> {
  return runTransaction(db, async (tx) => (await tx.conversation.deleteMany({ where: { source } })).count);
}

/** IN-1: deletes the staged conversations whose lease ran out (what a crash left), of any process. */
export async function deleteAbandonedStagedConversations(db: Database, now = new Date()): Promise<number> {
  const expired = new Date(now.getTime() - stagingLeaseMs());
  return runTransaction(db, async (tx) => {
    const where = { source: { startsWith: STAGING_SOURCE_PREFIX }, updatedAt: { lt: expired } };
    return (await tx.conversation.deleteMany({ where })).count;
  });
}
