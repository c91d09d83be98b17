import "server-only";
import type { Database, Transaction } from "./client";
import { InvalidArgumentError, NotFoundError } from "./errors";
import type { Checkpoint as CheckpointRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonObjectText, toJsonText, toNullableJsonText, type JsonObject } from "./json";
import { lineageOrder, loadLineage, type Lineage, type ListOptions } from "./lineage";
import { insertRow, lockBranch, newRowId, requireBranch, runQuery, runTransaction } from "./run";
import { branchIdOf, lineageOf, type BranchRef } from "./scope";
import { isInSummaryChain } from "./summaries";

/** A saved context state of one branch. */
export interface CheckpointRecord {
  id: string;
  branchId: string;
  /** 1, 2, 3… per branch; only grows. */
  version: number;
  /** Context state values. */
  values: JsonObject;
  tokenUsage: JsonObject;
  /** Ids of the artifacts the state refers to. */
  artifactRefs: string[];
  metadata: JsonObject | null;
  /** How many history messages the checkpoint covers. */
  messageCount: number;
  summaryId: string | null;
  createdAt: string;
}

/** A checkpoint without its payloads (`values`, `tokenUsage`, `artifactRefs`), which grow with the history. */
export type CheckpointOutline = Omit<CheckpointRecord, "values" | "tokenUsage" | "artifactRefs">;

/** Options of `getCheckpointOutlinesByBranchId`. */
export interface CheckpointOutlineOptions extends ListOptions {
  /** Only checkpoints that point at this summary. */
  summaryId?: string;
}

export interface CreateCheckpointOptions {
  values: Record<string, unknown>;
  tokenUsage: Record<string, unknown>;
  artifactRefs?: string[];
  metadata?: Record<string, unknown> | null;
  /** History length covered: 0 ≤ messageCount ≤ the branch's length. */
  messageCount: number;
  /** A summary in the branch's visible chain. */
  summaryId?: string | null;
}

export function toCheckpointRecord(row: CheckpointRow): CheckpointRecord {
  return {
    id: row.id,
    branchId: row.branchId,
    version: row.version,
    values: fromJsonText<JsonObject>(row.values),
    tokenUsage: fromJsonText<JsonObject>(row.tokenUsage),
    artifactRefs: fromJsonText<string[]>(row.artifactRefs),
    metadata: fromNullableJsonText<JsonObject>(row.metadata),
    messageCount: row.messageCount,
    summaryId: row.summaryId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Prisma filter for the checkpoints the lineage's last branch sees. */
function checkpointVisibleWhere(lineage: Lineage) {
  return lineage.map((entry) =>
    entry.until === null
      ? { branchId: entry.branch.id }
      : { branchId: entry.branch.id, messageCount: { lte: entry.until }, revision: { lte: entry.revisionUntil ?? 0 } },
  );
}

async function loadVisibleCheckpoints(client: Transaction, lineage: Lineage): Promise<CheckpointRow[]> {
  const rows = await client.checkpoint.findMany({ where: { OR: checkpointVisibleWhere(lineage) } });
  const depth = lineageOrder(lineage);
  return rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.version - right.version);
}

const OUTLINE_SELECT = { id: true, branchId: true, version: true, metadata: true, messageCount: true, summaryId: true, createdAt: true } as const;

/** Saves a checkpoint under the branch's next version (1 for its first). */
export async function createCheckpoint(db: Database, ref: BranchRef, options: CreateCheckpointOptions): Promise<CheckpointRecord> {
  const data = {
    values: toJsonObjectText(options.values, "values"),
    tokenUsage: toJsonObjectText(options.tokenUsage, "tokenUsage"),
    artifactRefs: toJsonText(options.artifactRefs ?? [], "artifactRefs"),
    metadata: toNullableJsonText(options.metadata, "metadata"),
  };
  const { messageCount, summaryId = null } = options;
  const branchId = branchIdOf(ref);
  return runTransaction(db, async (tx) => {
    // The counter is bumped under the branch lock, so concurrent saves get distinct, growing versions.
    const branch = await lockBranch(tx, branchId, { checkpoint: true, revision: true });
    if (!Number.isInteger(messageCount) || messageCount < 0 || messageCount > branch.length) {
      throw new InvalidArgumentError(
        "messageCount",
        `checkpoint messageCount ${messageCount} is outside branch '${branch.name}' history of ${branch.length} messages`,
      );
    }
    if (summaryId !== null) {
      if (!(await isInSummaryChain(tx, await lineageOf(tx, ref), summaryId))) {
        throw new InvalidArgumentError("summaryId", `summary '${summaryId}' is not in branch '${branch.name}' visible summary chain`);
      }
    }
    // Written on every compaction of a recorded conversation: a plain INSERT (DB-G6).
    const row: CheckpointRow = {
      id: newRowId("k"),
      ...data,
      branchId,
      version: branch.checkpointCount,
      messageCount,
      summaryId,
      revision: branch.revision,
      createdAt: new Date(),
    };
    await insertRow(tx, "Checkpoint", row);
    return toCheckpointRecord(row);
  });
}

/** The branch's checkpoints by version; with `inherited`, its ancestors' visible ones first (root first). */
export async function getCheckpointsByBranchId(db: Database, branchId: string, options: ListOptions = {}): Promise<CheckpointRecord[]> {
  return runQuery(db, async () => {
    if (options.inherited) return (await loadVisibleCheckpoints(db, await loadLineage(db, branchId))).map(toCheckpointRecord);
    await requireBranch(db, branchId);
    const rows = await db.checkpoint.findMany({ where: { branchId }, orderBy: { version: "asc" } });
    return rows.map(toCheckpointRecord);
  });
}

/**
 * Checkpoints as `getCheckpointsByBranchId` lists them (own by version; with
 * `inherited`, ancestors' visible ones first), without their payloads;
 * `summaryId` keeps those that point at one summary.
 */
export async function getCheckpointOutlinesByBranchId(db: Database, branch: BranchRef, options: CheckpointOutlineOptions = {}): Promise<CheckpointOutline[]> {
  return runQuery(db, async () => {
    const bySummary = options.summaryId === undefined ? {} : { summaryId: options.summaryId };
    const lineage = await lineageOf(db, branch);
    const own = lineage[lineage.length - 1];
    const rows = await db.checkpoint.findMany({
      where: options.inherited ? { OR: checkpointVisibleWhere(lineage), ...bySummary } : { branchId: own.branch.id, ...bySummary },
      select: OUTLINE_SELECT,
    });
    const depth = lineageOrder(lineage);
    rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.version - right.version);
    return rows.map((row) => ({
      id: row.id,
      branchId: row.branchId,
      version: row.version,
      metadata: fromNullableJsonText<JsonObject>(row.metadata),
      messageCount: row.messageCount,
      summaryId: row.summaryId,
      createdAt: row.createdAt.toISOString(),
    }));
  });
}

export async function getCheckpointById(db: Database, checkpointId: string): Promise<CheckpointRecord> {
  return runQuery(db, async () => {
    const row = await db.checkpoint.findUnique({ where: { id: checkpointId } });
    if (!row) throw new NotFoundError("checkpoint", checkpointId);
    return toCheckpointRecord(row);
  });
}
