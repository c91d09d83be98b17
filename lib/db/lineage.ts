import "server-only";
import type { Transaction } from "./client";
import { NotFoundError } from "./errors";
import type { Branch as BranchRow } from "./generated/sqlite/client";

/**
 * One branch of a lineage (root first, the branch asked about last) and
 * which of its rows that last branch can see.
 *
 * Visibility rule: a descendant sees an ancestor's row only if it lies before
 * the fork point in history (`position < until`; for summaries and
 * checkpoints, `toPosition`/`messageCount <= until`) AND it existed when the
 * fork was made (`revision <= revisionUntil`). Child rows are never visible
 * to a parent: a lineage only walks upwards.
 */
export interface LineageEntry {
  branch: BranchRow;
  /** History positions at or past this belong to a descendant; null for the branch itself. */
  until: number | null;
  /** Rows written after this revision came after the fork; null for the branch itself. */
  revisionUntil: number | null;
}

export type Lineage = LineageEntry[];

/** Options of the list-by-branch queries. */
export interface ListOptions {
  /** Also return what the branch inherits from its ancestors (root first). Default false: own rows only. */
  inherited?: boolean;
}

/** Loads a branch's lineage in two queries, however deep it is (one for a root). */
export async function loadLineage(client: Transaction, branchId: string): Promise<Lineage> {
  const branch = await client.branch.findUnique({ where: { id: branchId } });
  if (!branch) throw new NotFoundError("branch", branchId);
  return lineageFrom(client, branch);
}

/** The lineage of a loaded branch row: no query for a root, one for a fork however deep. */
export async function lineageFrom(client: Transaction, branch: BranchRow): Promise<Lineage> {
  if (branch.parentId === null) return lineageAmong(branch, []);
  return lineageAmong(branch, await client.branch.findMany({ where: { conversationId: branch.conversationId } }));
}

/** The lineage of a branch among its conversation's branch rows, already loaded. */
export function lineageAmong(branch: BranchRow, branches: readonly BranchRow[]): Lineage {
  const chain = [branch];
  if (branch.parentId !== null) {
    const byId = new Map(branches.map((row) => [row.id, row]));
    for (let parentId: string | null = branch.parentId; parentId !== null; ) {
      const parent = byId.get(parentId);
      if (!parent) throw new NotFoundError("branch", parentId);
      chain.unshift(parent);
      parentId = parent.parentId;
    }
  }
  const lineage: Lineage = chain.map((row) => ({ branch: row, until: null, revisionUntil: null }));
  for (let index = lineage.length - 2; index >= 0; index -= 1) {
    const child = lineage[index + 1];
    const forkPosition = child.branch.forkPosition ?? 0;
    // A grandchild inherits only what its parent inherited, so fork points narrow down the chain.
    lineage[index].until = child.until === null ? forkPosition : Math.min(child.until, forkPosition);
    // The parent's view of its own ancestors was fixed when it was forked, so only the next fork's revision counts.
    lineage[index].revisionUntil = child.branch.forkRevision ?? 0;
  }
  return lineage;
}

/** Orders rows by their branch's place in the lineage (root first). */
export function lineageOrder(lineage: Lineage): (branchId: string) => number {
  const depth = new Map(lineage.map((entry, index) => [entry.branch.id, index]));
  return (branchId) => depth.get(branchId) ?? -1;
}

/** The lineage's branches nearest first: the order in which a lookup shadows ancestors. */
export function nearestFirst(lineage: Lineage): LineageEntry[] {
  return [...lineage].reverse();
}

/**
 * Prisma `OR` filter for rows placed at a history position (artifacts,
 * offloaded content): a branch's own rows, and an ancestor's rows before the
 * fork point that were written before the fork.
 */
export function positionVisibleWhere(lineage: Lineage) {
  return lineage.map((entry) =>
    entry.until === null
      ? { branchId: entry.branch.id }
      : { branchId: entry.branch.id, position: { lt: entry.until }, revision: { lte: entry.revisionUntil ?? 0 } },
  );
}
