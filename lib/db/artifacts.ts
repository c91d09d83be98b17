import "server-only";
import type { Database } from "./client";
import { InvalidArgumentError, NotFoundError } from "./errors";
import type { Artifact as ArtifactRow } from "./generated/sqlite/client";
import { lineageOrder, loadLineage, positionVisibleWhere, type ListOptions } from "./lineage";
import { lockBranch, requireBranch, runQuery, runTransaction } from "./run";
import { lineageOf, type BranchRef } from "./scope";

/** A large tool result kept out of the history, with a short summary for retrieval. */
export interface ArtifactRecord {
  id: string;
  branchId: string;
  toolCallId: string | null;
  toolName: string | null;
  content: string;
  /** Short retrieval summary. */
  summary: string;
  /** Length in UTF-16 code units. */
  size: number;
  tokens: number;
  /** The history slot the artifact belongs to (its tool message). */
  position: number;
  createdAt: string;
}

/** An artifact without its content: what listing and retrieval need, however large the tool results were. */
export type ArtifactOutline = Omit<ArtifactRecord, "content">;

export interface CreateArtifactOptions {
  toolCallId?: string | null;
  toolName?: string | null;
  content: string;
  summary: string;
  tokens: number;
  /** The tool message's position; default the branch's next slot (its current length). */
  position?: number;
}

export function toArtifactRecord(row: ArtifactRow): ArtifactRecord {
  return {
    id: row.id,
    branchId: row.branchId,
    toolCallId: row.toolCallId,
    toolName: row.toolName,
    content: row.content,
    summary: row.summary,
    size: row.size,
    tokens: row.tokens,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
  };
}

const OUTLINE_SELECT = {
  id: true,
  branchId: true,
  toolCallId: true,
  toolName: true,
  summary: true,
  size: true,
  tokens: true,
  position: true,
  revision: true,
  createdAt: true,
} as const;

export async function createArtifact(db: Database, branchId: string, options: CreateArtifactOptions): Promise<ArtifactRecord> {
  return runTransaction(db, async (tx) => {
    const branch = await lockBranch(tx, branchId, { revision: true });
    const position = options.position ?? branch.length;
    if (!Number.isInteger(position) || position < 0 || position > branch.length) {
      throw new InvalidArgumentError("position", `position ${position} is outside branch '${branch.name}' history of ${branch.length} messages`);
    }
    const row = await tx.artifact.create({
      data: {
        branchId,
        toolCallId: options.toolCallId ?? null,
        toolName: options.toolName ?? null,
        content: options.content,
        summary: options.summary,
        size: options.content.length,
        tokens: options.tokens,
        position,
        revision: branch.revision,
      },
    });
    return toArtifactRecord(row);
  });
}

/** An artifact by id, only if it is visible from the branch (its own, or an ancestor's from before the fork). */
export async function getArtifactById(db: Database, branchId: string, artifactId: string): Promise<ArtifactRecord> {
  return runQuery(db, async () => {
    const lineage = await loadLineage(db, branchId);
    const row = await db.artifact.findFirst({ where: { id: artifactId, OR: positionVisibleWhere(lineage) } });
    if (!row) throw new NotFoundError("artifact", artifactId, `artifact '${artifactId}' is not visible from branch '${branchId}'`);
    return toArtifactRecord(row);
  });
}

/** The branch's artifacts by position; with `inherited`, its ancestors' visible ones first. */
export async function getArtifactsByBranchId(db: Database, branchId: string, options: ListOptions = {}): Promise<ArtifactRecord[]> {
  return runQuery(db, async () => {
    if (!options.inherited) {
      await requireBranch(db, branchId);
      const rows = await db.artifact.findMany({ where: { branchId }, orderBy: [{ position: "asc" }, { revision: "asc" }] });
      return rows.map(toArtifactRecord);
    }
    const lineage = await loadLineage(db, branchId);
    const depth = lineageOrder(lineage);
    const rows = await db.artifact.findMany({ where: { OR: positionVisibleWhere(lineage) } });
    rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.position - right.position || left.revision - right.revision);
    return rows.map(toArtifactRecord);
  });
}

/**
 * The artifacts `getArtifactsByBranchId` lists, in the same order, without
 * their content (the database never sends it).
 */
export async function getArtifactOutlinesByBranchId(db: Database, branch: BranchRef, options: ListOptions = {}): Promise<ArtifactOutline[]> {
  return runQuery(db, async () => {
    const lineage = await lineageOf(db, branch);
    const depth = lineageOrder(lineage);
    const where = options.inherited ? { OR: positionVisibleWhere(lineage) } : { branchId: lineage[lineage.length - 1].branch.id };
    const rows = await db.artifact.findMany({ where, select: OUTLINE_SELECT });
    rows.sort((left, right) => depth(left.branchId) - depth(right.branchId) || left.position - right.position || left.revision - right.revision);
    return rows.map((row) => ({
      id: row.id,
      branchId: row.branchId,
      toolCallId: row.toolCallId,
      toolName: row.toolName,
      summary: row.summary,
      size: row.size,
      tokens: row.tokens,
      position: row.position,
      createdAt: row.createdAt.toISOString(),
    }));
  });
}
