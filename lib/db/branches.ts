import "server-only";
import type { Database } from "./client";
import { InvalidArgumentError, NotFoundError } from "./errors";
import type { Branch as BranchRow } from "./generated/sqlite/client";
import { loadLineage } from "./lineage";
import { instantOf, lockBranch, runQuery, runTransaction, touchConversation } from "./run";
import { readRowsWhere } from "./read-batches";

/** A branch as route handlers return it. */
export interface BranchRecord {
  id: string;
  conversationId: string;
  name: string;
  parentId: string | null;
  /** How many of the parent's history messages this branch inherits; null for a root. */
  forkPosition: number | null;
  /** Full history length: inherited plus own messages. */
  length: number;
  createdAt: string;
}

export interface BranchTreeNode extends BranchRecord {
  children: BranchTreeNode[];
}

/** One step of a branch's ancestry, root first. */
export interface AncestryEntry {
  branch: BranchRecord;
  /**
   * The descendant asked about sees this branch's history before this
   * position (the nearest fork point below it); null for the branch itself.
   */
  visibleUntil: number | null;
}

export interface ForkBranchOptions {
  /** How many of the parent's history messages the child inherits: 0 ≤ position ≤ parent length. */
  position: number;
  /** Defaults to `<parent name>@<position>`. */
  name?: string;
}

/** A new root branch's row, as the schema's defaults make it: no parent, no checkpoints, a first revision once it holds messages. */
export function rootBranchRow(branch: Pick<BranchRow, "id" | "conversationId" | "name" | "length" | "createdAt">): BranchRow {
  const { id, conversationId, name, length, createdAt } = branch;
  return {
    id,
    conversationId,
    name,
    parentId: null,
    forkPosition: null,
    forkRevision: null,
    length,
    revision: length > 0 ? 1 : 0,
    checkpointCount: 0,
    createdAt,
  };
}

export function toBranchRecord(row: BranchRow): BranchRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    name: row.name,
    parentId: row.parentId,
    forkPosition: row.forkPosition,
    length: row.length,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getBranchById(db: Database, branchId: string): Promise<BranchRecord> {
  return runQuery(db, async () => {
    const row = await db.branch.findUnique({ where: { id: branchId } });
    if (!row) throw new NotFoundError("branch", branchId);
    return toBranchRecord(row);
  });
}

/** A conversation's branches in creation order. */
export async function getBranchesByConversationId(db: Database, conversationId: string): Promise<BranchRecord[]> {
  return runQuery(db, async () => {
    // Read on every recorded call (DB-G8, DB-G11).
    const rows = await readRowsWhere(db, "Branch", "conversationId", conversationId, `"createdAt" ASC, "id" ASC`);
    if (rows.length === 0) throw new NotFoundError("conversation", conversationId);
    return rows.map((row) => toBranchRecord({ ...(row as unknown as BranchRow), createdAt: instantOf(row.createdAt) }));
  });
}

/** The branch a conversation was created with. */
export async function getRootBranchByConversationId(db: Database, conversationId: string): Promise<BranchRecord> {
  return runQuery(db, async () => {
    const row = await db.branch.findFirst({ where: { conversationId, parentId: null }, orderBy: { createdAt: "asc" } });
    if (!row) throw new NotFoundError("conversation", conversationId);
    return toBranchRecord(row);
  });
}

/** A conversation's branches as a tree: its roots (normally one), children in creation order. */
export async function getBranchTreeByConversationId(db: Database, conversationId: string): Promise<BranchTreeNode[]> {
  return treeOf(await getBranchesByConversationId(db, conversationId));
}

/** Branches (in creation order) as a tree: roots, children in creation order. */
export function treeOf(branches: readonly BranchRecord[]): BranchTreeNode[] {
  const nodes = new Map<string, BranchTreeNode>(branches.map((branch) => [branch.id, { ...branch, children: [] }]));
  const roots: BranchTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The branch's ancestors and itself, root first, with what each one passes down. */
export async function getAncestryByBranchId(db: Database, branchId: string): Promise<AncestryEntry[]> {
  return runQuery(db, async () => {
    const lineage = await loadLineage(db, branchId);
    return lineage.map((entry) => ({ branch: toBranchRecord(entry.branch), visibleUntil: entry.until }));
  });
}

/**
 * Forks a branch: the child inherits the parent's first `position` history
 * messages and whatever summaries, checkpoints, offloaded content and
 * artifacts existed for them at this moment; it writes only its own rows.
 */
export async function forkBranch(db: Database, parentId: string, options: ForkBranchOptions): Promise<BranchRecord> {
  const { position } = options;
  return runTransaction(db, async (tx) => {
    // Locking the parent makes the fork a clean cut: a concurrent write lands wholly before or after it.
    const parent = await lockBranch(tx, parentId);
    if (!Number.isInteger(position) || position < 0 || position > parent.length) {
      throw new InvalidArgumentError(
        "position",
        `cannot fork branch '${parent.name}' (${parentId}) at position ${position}: it has ${parent.length} messages, so the position must be an integer from 0 to ${parent.length}`,
      );
    }
    const child = await tx.branch.create({
      data: {
        conversationId: parent.conversationId,
        name: options.name ?? `${parent.name}@${position}`,
        parentId,
        forkPosition: position,
        forkRevision: parent.revision,
        length: position,
      },
    });
    await touchConversation(tx, parent.conversationId);
    return toBranchRecord(child);
  });
}
