import "server-only";
import type { Database, Transaction } from "./client";
import { InvalidArgumentError } from "./errors";
import type { Summary as SummaryRow } from "./generated/sqlite/client";
import { lineageOrder, nearestFirst, type Lineage, type LineageEntry, type ListOptions } from "./lineage";
import { insertRow, lockBranch, newRowId, requireBranch, runQuery, runTransaction } from "./run";
import { branchIdOf, lineageOf, type BranchRef } from "./scope";

/** One link of a branch's summary chain. */
export interface SummaryRecord {
  id: string;
  branchId: string;
  /** Covers [fromPosition, toPosition) of the branch's full history. */
  fromPosition: number;
  toPosition: number;
  text: string;
  tokens: number;
  /** The previous summary in the chain, possibly an ancestor branch's. */
  extendsId: string | null;
  createdAt: string;
}

export interface CreateSummaryOptions {
  fromPosition: number;
  toPosition: number;
  text: string;
  tokens: number;
  /**
   * The chain's end as the caller read it, when it holds the branch at the
   * revision it read it at (MEM-8): not read again. Absent: read under the lock.
   */
  previous?: SummaryRecord | null;
}

export function toSummaryRecord(row: SummaryRow): SummaryRecord {
  return {
    id: row.id,
    branchId: row.branchId,
    fromPosition: row.fromPosition,
    toPosition: row.toPosition,
    text: row.text,
    tokens: row.tokens,
    extendsId: row.extendsId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Prisma filter for one lineage branch's summaries its descendant sees (all of them for the branch itself). */
function summaryVisibleWhere(entry: LineageEntry) {
  return entry.until === null
    ? { branchId: entry.branch.id }
    : { branchId: entry.branch.id, toPosition: { lte: entry.until }, revision: { lte: entry.revisionUntil ?? 0 } };
}

/** The visible chain in order: ancestors' links (root first) up to each fork point, then the branch's own. */
export async function loadSummaryChain(client: Transaction, lineage: Lineage): Promise<SummaryRow[]> {
  const rows = await client.summary.findMany({ where: { OR: lineage.map(summaryVisibleWhere) } });
  const depth = lineageOrder(lineage);
  return rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.revision - right.revision);
}

/**
 * The last link of the visible chain without loading the rest: the newest
 * visible summary of the nearest branch that has one. One query when the
 * branch has summaries of its own, one more per ancestor without any.
 */
export async function loadLatestSummary(client: Transaction, lineage: Lineage): Promise<SummaryRow | null> {
  for (const entry of nearestFirst(lineage)) {
    const row = await client.summary.findFirst({ where: summaryVisibleWhere(entry), orderBy: { revision: "desc" } });
    if (row) return row;
  }
  return null;
}

/** Whether a summary is in the lineage's visible chain. */
export async function isInSummaryChain(client: Transaction, lineage: Lineage, summaryId: string): Promise<boolean> {
  // The summary this transaction just added to this branch's chain (a compaction's checkpoint points at it) is not read back.
  const written = writtenSummaries.get(client);
  if (written?.id === summaryId && written.branchId === lineage[lineage.length - 1].branch.id) return true;
  const row = await client.summary.findFirst({ where: { id: summaryId, OR: lineage.map(summaryVisibleWhere) }, select: { id: true } });
  return row !== null;
}

/** The summary each open transaction added last, and its branch, by transaction client. */
const writtenSummaries = new WeakMap<object, { id: string; branchId: string }>();

/**
 * Adds a summary to the end of the branch's visible chain (it extends the
 * latest visible one). The chain only moves forward: the new summary must
 * start no later than the previous one ends (no gap) and end no earlier.
 */
export async function createSummary(db: Database, ref: BranchRef, options: CreateSummaryOptions): Promise<SummaryRecord> {
  const { fromPosition, toPosition } = options;
  const branchId = branchIdOf(ref);
  return runTransaction(db, async (tx) => {
    // Serialises summary writers on the branch, so the chain never forks within it.
    const branch = await lockBranch(tx, branchId, { revision: true });
    if (!Number.isInteger(fromPosition) || !Number.isInteger(toPosition) || fromPosition < 0 || fromPosition >= toPosition || toPosition > branch.length) {
      throw new InvalidArgumentError(
        "toPosition",
        `summary range [${fromPosition}, ${toPosition}) is not within branch '${branch.name}' history of ${branch.length} messages (need 0 ≤ from < to ≤ ${branch.length})`,
      );
    }
    const previous = options.previous !== undefined ? options.previous : await loadLatestSummary(tx, await lineageOf(tx, ref));
    if (previous && (fromPosition > previous.toPosition || toPosition < previous.toPosition)) {
      throw new InvalidArgumentError(
        "fromPosition",
        `summary [${fromPosition}, ${toPosition}) does not continue the chain: the latest summary covers [${previous.fromPosition}, ${previous.toPosition}), so the new one must start at or before ${previous.toPosition} and end at or after it`,
      );
    }
    // Written on every compaction of a recorded conversation: a plain INSERT (DB-G6).
    const row: SummaryRow = {
      id: newRowId("s"),
      branchId,
      fromPosition,
      toPosition,
      text: options.text,
      tokens: options.tokens,
      extendsId: previous?.id ?? null,
      revision: branch.revision,
      createdAt: new Date(),
    };
    await insertRow(tx, "Summary", row);
    writtenSummaries.set(tx, { id: row.id, branchId });
    return toSummaryRecord(row);
  });
}

/** The chain a branch sees: inherited links up to each fork point, then its own, oldest first. */
export async function getSummaryChainByBranchId(db: Database, branch: BranchRef): Promise<SummaryRecord[]> {
  return runQuery(db, async () => (await loadSummaryChain(db, await lineageOf(db, branch))).map(toSummaryRecord));
}

/** The end of the branch's visible chain, or null when it has none; loads only that link. */
export async function getLatestSummaryByBranchId(db: Database, branch: BranchRef): Promise<SummaryRecord | null> {
  return runQuery(db, async () => {
    const row = await loadLatestSummary(db, await lineageOf(db, branch));
    return row ? toSummaryRecord(row) : null;
  });
}

/** How many links the branch's visible chain has, counted by the database. */
export async function getSummaryChainLengthByBranchId(db: Database, branch: BranchRef): Promise<number> {
  return runQuery(db, async () => db.summary.count({ where: { OR: (await lineageOf(db, branch)).map(summaryVisibleWhere) } }));
}

/** The branch's own summaries, or with `inherited` its whole visible chain. */
export async function getSummariesByBranchId(db: Database, branchId: string, options: ListOptions = {}): Promise<SummaryRecord[]> {
  if (options.inherited) return getSummaryChainByBranchId(db, branchId);
  return runQuery(db, async () => {
    await requireBranch(db, branchId);
    const rows = await db.summary.findMany({ where: { branchId }, orderBy: { revision: "asc" } });
    return rows.map(toSummaryRecord);
  });
}
