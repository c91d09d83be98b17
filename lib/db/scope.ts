import "server-only";
import { rootBranchRow, toBranchRecord, treeOf, type BranchRecord, type BranchTreeNode } from "./branches";
import type { Database, Transaction } from "./client";
import { toConversationRecord, type ConversationRecord } from "./conversation-record";
import { NotFoundError } from "./errors";
import { lineageAmong, lineageFrom, loadLineage, type Lineage } from "./lineage";
import { runQuery } from "./run";
import type { Branch as BranchRow } from "./generated/sqlite/client";

/**
 * A branch with its lineage loaded once, for several reads of what that
 * branch sees: every query that takes a branch id also takes a scope and then
 * skips loading the lineage again. Which rows a branch sees depends only on
 * its ancestors and their fork points, which never change, so a scope stays
 * valid for as long as the branch exists and can be used on any client
 * (inside a transaction too). Its `branch` is as it was when loaded (its
 * `length` then).
 */
export interface BranchScope {
  readonly branch: BranchRecord;
  /** The lineage, root first (lib/db's own use). */
  readonly lineage: Lineage;
  /** The branch's conversation, when `getBranchScope` was asked for it. */
  readonly conversation?: ConversationRecord;
}

/** Options of `getBranchScope`. */
export interface BranchScopeOptions {
  /** Load the branch's conversation too, with the branch (no extra query). */
  conversation?: boolean;
}

/** A branch id, or a scope loaded by `getBranchScope`. */
export type BranchRef = string | BranchScope;

/** Loads a branch's scope: one query for a root branch, two for a fork however deep. */
export async function getBranchScope(db: Database, branchId: string, options: BranchScopeOptions = {}): Promise<BranchScope> {
  return runQuery(db, async () => {
    if (!options.conversation) return scopeOf(await loadLineage(db, branchId));
    const row = await db.branch.findUnique({ where: { id: branchId }, include: { conversation: true } });
    // IN-2: the include is a second query; a conversation deleted between the two leaves the branch without it.
    if (!row?.conversation) throw new NotFoundError("branch", branchId);
    const { conversation, ...branch } = row;
    return { ...scopeOf(await lineageFrom(db, branch)), conversation: toConversationRecord(conversation) };
  });
}

/** The branch's revision when its scope was loaded: bumped by every write to it, so what it shows at one revision never changes. */
export function branchRevision(scope: BranchScope): number {
  return scope.lineage[scope.lineage.length - 1].branch.revision;
}

/**
 * The scope as it is after one write that appended `appended` messages to
 * the branch (and bumped its revision, as every write with messages does):
 * what a writer that holds the branch's only changes keeps instead of
 * loading it again.
 */
export function scopeAfterAppend(scope: BranchScope, appended: number): BranchScope {
  const { branch } = scope.lineage[scope.lineage.length - 1];
  return scopeWithRow(scope, { ...branch, length: branch.length + appended, revision: branch.revision + (appended > 0 ? 1 : 0) });
}

/** The scope with its branch's row as read under the branch's lock at the end of a write: what the writer keeps when it does not count the write's changes itself. */
export function scopeWithRow(scope: BranchScope, row: BranchRow): BranchScope {
  const last = scope.lineage[scope.lineage.length - 1];
  return { ...scope, branch: toBranchRecord(row), lineage: [...scope.lineage.slice(0, -1), { ...last, branch: row }] };
}

/**
 * The scope of a root branch `createConversation` just made without
 * messages (length, revision and checkpoints at 0), built without reading
 * it: for a writer that keeps the state of what it created (MEM-8), whose
 * first write checks the revision under the branch's lock anyway.
 */
export function emptyRootScope(branch: BranchRecord): BranchScope {
  if (branch.parentId !== null || branch.length !== 0) throw new Error(`branch ${branch.id} is not an empty root branch`);
  return scopeOf(lineageAmong(rootBranchRow({ ...branch, createdAt: new Date(branch.createdAt) }), []));
}

export function scopeOf(lineage: Lineage): BranchScope {
  return { branch: toBranchRecord(lineage[lineage.length - 1].branch), lineage };
}

/** The lineage of a branch reference: the scope's, or loaded (NotFoundError for an unknown id). */
export async function lineageOf(client: Transaction, ref: BranchRef): Promise<Lineage> {
  return typeof ref === "string" ? loadLineage(client, ref) : ref.lineage;
}

/** The branch id of a reference. */
export function branchIdOf(ref: BranchRef): string {
  return typeof ref === "string" ? ref : ref.branch.id;
}

/** What the workspace opens: a conversation, its branch tree and the scope of the branch it shows. */
export interface ConversationView {
  conversation: ConversationRecord;
  tree: BranchTreeNode[];
  /** The branch asked for when it belongs to the conversation, else its root branch. */
  scope: BranchScope;
}

/** The conversation with all its branches in one query: its tree, and the shown branch's scope built from the same rows. */
export async function getConversationView(db: Database, conversationId: string, branchId?: string): Promise<ConversationView> {
  return runQuery(db, async () => {
    const row = await db.conversation.findUnique({
      where: { id: conversationId },
      include: { branches: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
    });
    const shown = row && (row.branches.find((branch) => branch.id === branchId) ?? row.branches.find((branch) => branch.parentId === null));
    if (!row || !shown) throw new NotFoundError("conversation", conversationId);
    const { branches, ...conversation } = row;
    return {
      conversation: toConversationRecord(conversation),
      tree: treeOf(branches.map(toBranchRecord)),
      scope: scopeOf(lineageAmong(shown, branches)),
    };
  });
}
