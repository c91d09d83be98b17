import "server-only";
import { emptyRootScope, scopeAfterAppend, scopeWithRow, type BranchRecord, type ConversationRecord, type Database, type MessageRecord } from "@/lib/db";
import type { BranchRow } from "@/lib/db/run";
import { perDatabase } from "@/lib/db/per-database";
import { conversationSettings } from "@/lib/settings/server";
import { stateWindow, type BranchState, type CheckpointLists } from "./branch-state";
import type { CompactionResult } from "./compaction";

/**
 * MEM-8: a writer that records turn after turn on one branch (the recording
 * proxy) keeps the branch's state after each of its writes and starts the
 * next one from it instead of reading the branch again. The state is used
 * only at the revision it was kept at: the next write checks the revision at
 * its lock, so anything written to the branch meanwhile, by this process or
 * another, makes that write fail as stale and the branch is read again.
 */

/** Branches whose state is kept per database client; the least recently written is dropped first. */
const KEPT_BRANCHES = 1_000;
const keptOf = perDatabase<BranchState>("memory.kept-branch-states", KEPT_BRANCHES);

/** The state kept after this process's last write to the branch, with `conversation` as just read (its settings may have changed); null when none is kept. */
export async function keptState(db: Database, branchId: string, conversation: ConversationRecord): Promise<BranchState | null> {
  const kept = keptOf(db).get(branchId);
  if (!kept || kept.conversation.id !== conversation.id) return null;
  return { ...kept, conversation, settings: await conversationSettings(db, conversation) };
}

/** MEM-8: keeps the state of a root branch this writer just created, empty, so its first write reads nothing either. */
export async function keepCreated(db: Database, conversation: ConversationRecord, branch: BranchRecord): Promise<void> {
  const scope = emptyRootScope(branch);
  keptOf(db).set(branch.id, {
    scope,
    branch: scope.branch,
    conversation,
    settings: await conversationSettings(db, conversation),
    length: 0,
    latest: null,
    recent: [],
    rawComplete: true,
    listed: { handles: [], artifactIds: [] },
  });
}

/** Keeps the state after one write that appended `appended` (and nothing else) to the branch `state` was read from. */
export function keepState(db: Database, state: BranchState, appended: readonly MessageRecord[]): void {
  const window = stateWindow(state.settings);
  const combined = [...state.recent, ...appended];
  const recent = combined.slice(-window);
  const length = state.length + appended.length;
  keptOf(db).set(state.branch.id, {
    ...state,
    scope: scopeAfterAppend(state.scope, appended.length),
    branch: { ...state.branch, length },
    length,
    recent,
    // Complete while it still holds everything after the latest summary.
    rawComplete: state.rawComplete && recent.length === combined.length,
  });
}

/**
 * Keeps the state after one write that appended `appended` to the branch
 * `state` was read from and compacted it: the new summary is the latest,
 * the messages it covers leave the window, and the branch's counters are
 * `row`, as read under its lock at the end of the write.
 */
export function keepCompacted(db: Database, state: BranchState, appended: readonly MessageRecord[], compaction: CompactionResult, row: BranchRow): void {
  const length = state.length + appended.length;
  // Positions are contiguous from the state's window on; a row that says otherwise is not trusted.
  if (row.length !== length) {
    forgetState(db, state.branch.id);
    return;
  }
  const covered = compaction.coveredUntil;
  const recent = [...state.recent, ...appended].filter((record) => record.position >= covered).slice(-stateWindow(state.settings));
  const scope = scopeWithRow(state.scope, row);
  keptOf(db).set(state.branch.id, {
    ...state,
    scope,
    branch: scope.branch,
    length,
    latest: compaction.summary,
    listed: listedBy(compaction),
    recent,
    // Complete when the window starts where the raw part does (or the summary covers everything).
    rawComplete: (recent[0]?.position ?? length) === covered,
  });
}

/** What the compaction's checkpoint lists (its values name the offloaded handles, its references the artifacts). */
function listedBy(compaction: CompactionResult): CheckpointLists | undefined {
  const handles = compaction.checkpoint.values.offloaded_messages;
  if (!Array.isArray(handles) || !handles.every((handle) => typeof handle === "string")) return undefined;
  return { handles, artifactIds: compaction.checkpoint.artifactRefs };
}

/** Drops what is kept of the branch: the next write reads it. */
export function forgetState(db: Database, branchId: string): void {
  keptOf(db).delete(branchId);
}
