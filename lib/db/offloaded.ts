import "server-only";
import type { Database } from "./client";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import type { OffloadedContent as OffloadedContentRow } from "./generated/sqlite/client";
import { lineageOrder, loadLineage, nearestFirst, positionVisibleWhere, type Lineage, type ListOptions } from "./lineage";
import { lockBranch, requireBranch, runQuery, runTransaction } from "./run";
import { branchIdOf, lineageOf, type BranchRef } from "./scope";

export type OffloadedKind = "message" | "tool_result";

/** Content the engine moved out of the history, kept whole for `reload_offloaded`. */
export interface OffloadedContentRecord {
  id: string;
  branchId: string;
  /** The engine's handle (`off_<12 hex>`); unique per branch. */
  handle: string;
  kind: OffloadedKind;
  content: string;
  /** The history slot the content belongs to. */
  position: number;
  /** Length in UTF-16 code units, as the engine measures content. */
  size: number;
  createdAt: string;
}

/** Offloaded content without the content itself: its handle, kind, place and size. */
export type OffloadedContentOutline = Omit<OffloadedContentRecord, "content">;

export interface PutOffloadedContentOptions {
  handle: string;
  kind: OffloadedKind;
  content: string;
  /** The origin message's position; default the branch's next slot (its current length). */
  position?: number;
}

const KINDS: ReadonlySet<string> = new Set<OffloadedKind>(["message", "tool_result"]);

export function toOffloadedContentRecord(row: OffloadedContentRow): OffloadedContentRecord {
  return {
    id: row.id,
    branchId: row.branchId,
    handle: row.handle,
    kind: row.kind as OffloadedKind,
    content: row.content,
    position: row.position,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Stores offloaded content under a handle on a branch. Putting the same
 * handle again with the same content returns the stored row (pipelines
 * re-run); different content under a taken handle is a ConflictError.
 */
export async function putOffloadedContent(db: Database, branchId: string, options: PutOffloadedContentOptions): Promise<OffloadedContentRecord> {
  const { handle, kind, content } = options;
  if (!KINDS.has(kind)) throw new InvalidArgumentError("kind", `offloaded content kind '${kind}' is not 'message' or 'tool_result'`);
  return runTransaction(db, async (tx) => {
    const branch = await lockBranch(tx, branchId, { revision: true });
    const existing = await tx.offloadedContent.findUnique({ where: { branchId_handle: { branchId, handle } } });
    if (existing) {
      if (existing.content === content && existing.kind === kind) return toOffloadedContentRecord(existing);
      throw new ConflictError("offloadedContent", `branch '${branch.name}' already holds different content under handle '${handle}'`);
    }
    const position = options.position ?? branch.length;
    if (!Number.isInteger(position) || position < 0 || position > branch.length) {
      throw new InvalidArgumentError("position", `position ${position} is outside branch '${branch.name}' history of ${branch.length} messages`);
    }
    const row = await tx.offloadedContent.create({
      data: { branchId, handle, kind, content, position, size: content.length, revision: branch.revision },
    });
    return toOffloadedContentRecord(row);
  });
}

const OUTLINE_SELECT = { id: true, branchId: true, handle: true, kind: true, position: true, size: true, revision: true, createdAt: true } as const;

function toOutline(row: Pick<OffloadedContentRow, keyof typeof OUTLINE_SELECT>): OffloadedContentOutline {
  return {
    id: row.id,
    branchId: row.branchId,
    handle: row.handle,
    kind: row.kind as OffloadedKind,
    position: row.position,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The row a handle resolves to from the lineage's last branch: its own first, then the nearest ancestor's. */
function nearestOf<T extends { branchId: string }>(lineage: Lineage, rows: T[]): T | undefined {
  for (const entry of nearestFirst(lineage)) {
    const row = rows.find((candidate) => candidate.branchId === entry.branch.id);
    if (row) return row;
  }
  return undefined;
}

/**
 * Resolves a handle from a branch: its own content first, then each
 * ancestor's as it was at the fork (nearest ancestor first).
 */
export async function getOffloadedContentByHandle(db: Database, branch: BranchRef, handle: string): Promise<OffloadedContentRecord> {
  return runQuery(db, async () => {
    const lineage = await lineageOf(db, branch);
    const row = nearestOf(lineage, await db.offloadedContent.findMany({ where: { handle, OR: positionVisibleWhere(lineage) } }));
    if (row) return toOffloadedContentRecord(row);
    throw new NotFoundError("offloadedContent", handle, `no offloaded content with handle '${handle}' is visible from branch '${branchIdOf(branch)}'`);
  });
}

/** What `getOffloadedContentByHandle` would resolve, without the content; null when the branch sees nothing under the handle. */
export async function findOffloadedContentOutlineByHandle(db: Database, branch: BranchRef, handle: string): Promise<OffloadedContentOutline | null> {
  return runQuery(db, async () => {
    const lineage = await lineageOf(db, branch);
    const rows = await db.offloadedContent.findMany({ where: { handle, OR: positionVisibleWhere(lineage) }, select: OUTLINE_SELECT });
    const row = nearestOf(lineage, rows);
    return row ? toOutline(row) : null;
  });
}

/** The branch's offloaded content by position; with `inherited`, its ancestors' visible content first. */
export async function getOffloadedContentsByBranchId(db: Database, branchId: string, options: ListOptions = {}): Promise<OffloadedContentRecord[]> {
  return runQuery(db, async () => {
    if (!options.inherited) {
      await requireBranch(db, branchId);
      const rows = await db.offloadedContent.findMany({ where: { branchId }, orderBy: [{ position: "asc" }, { revision: "asc" }] });
      return rows.map(toOffloadedContentRecord);
    }
    const lineage = await loadLineage(db, branchId);
    const depth = lineageOrder(lineage);
    const rows = await db.offloadedContent.findMany({ where: { OR: positionVisibleWhere(lineage) } });
    rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.position - right.position || left.revision - right.revision);
    return rows.map(toOffloadedContentRecord);
  });
}

/** The content `getOffloadedContentsByBranchId` lists, in the same order, without the content itself. */
export async function getOffloadedContentOutlinesByBranchId(db: Database, branch: BranchRef, options: ListOptions = {}): Promise<OffloadedContentOutline[]> {
  return runQuery(db, async () => {
    const lineage = await lineageOf(db, branch);
    const depth = lineageOrder(lineage);
    const where = options.inherited ? { OR: positionVisibleWhere(lineage) } : { branchId: lineage[lineage.length - 1].branch.id };
    const rows = await db.offloadedContent.findMany({ where, select: OUTLINE_SELECT });
    rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.position - right.position || left.revision - right.revision);
    return rows.map(toOutline);
  });
}
