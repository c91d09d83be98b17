import "server-only";
import { keepsMemory, splitRounds, type Message } from "@/lib/context";
import {
  appendMessages,
  ConflictError,
  getBranchScope,
  getConversationById,
  getHistoryByBranchId,
  getHistoryTotalsByBranchId,
  getLatestSummaryByBranchId,
  getSummaryChainByBranchId,
  type BranchRecord,
  type BranchScope,
  type ConversationRecord,
  type Database,
  type MessageRecord,
  type NewMessage,
  type SummaryRecord,
} from "@/lib/db";
import { retryWhile } from "@/lib/db/run";
import type { ResolvedSettings, SettingsChanges } from "@/lib/settings";
import { conversationSettings } from "@/lib/settings/server";

/**
 * What the memory services read of a branch, all through the storage layer's
 * visibility (own rows plus ancestors' up to each fork): the latest summary
 * and the end of the history, never the whole of it, so a call costs the
 * same on a branch of 100 messages and one of 100,000.
 */
export interface BranchState {
  /** The branch's lineage, loaded once for every read of the call. */
  scope: BranchScope;
  branch: BranchRecord;
  conversation: ConversationRecord;
  /** The conversation's settings with the call's overrides, resolved against the model catalogue. */
  settings: ResolvedSettings;
  /** History length when the state was read. */
  length: number;
  /** The latest visible summary (the last link of the chain), or null. */
  latest: SummaryRecord | null;
  /** The history's last messages: positions `[length - recent.length, length)`. */
  recent: MessageRecord[];
  /** True when `recent` holds the whole raw part (everything from `coveredUntil` on). */
  rawComplete: boolean;
  /** The whole visible chain, when asked for (its last link is `latest`). */
  chain?: SummaryRecord[];
  /**
   * What the branch's last checkpoint listed, when this state was kept
   * after writing it (MEM-8): the offloaded handles and artifacts the
   * branch sees, unchanged while the state holds (writing either moves the
   * revision). Absent: the next compaction reads them.
   */
  listed?: CheckpointLists;
}

/** The offloaded handles and artifact ids a checkpoint lists. */
export interface CheckpointLists {
  handles: string[];
  artifactIds: string[];
}

/** Options of `loadBranchState`. */
export interface LoadStateOptions {
  /** Raw messages to read at most, or "raw" for all of them; default RAW_WINDOW (TAIL_WINDOW when summaries are off). */
  window?: number | "raw";
  /** Read the whole chain instead of its last link. */
  chain?: boolean;
}

/** Raw messages read with the state at most; a longer raw part (summaries off, or not due for long) is counted by the database and read only to compact it. */
export const RAW_WINDOW = 256;
/** Messages read when only the tool-pairing tail is needed (summaries off). */
const TAIL_WINDOW = 16;

/** Raw messages a state holds by default under `settings`: RAW_WINDOW, or TAIL_WINDOW when nothing is ever due. */
export function stateWindow(settings: ResolvedSettings): number {
  return settings.policy.summaryThreshold === null ? TAIL_WINDOW : RAW_WINDOW;
}

/**
 * Loads a branch's state in a handful of queries, however long its history:
 * the lineage, the conversation, the latest summary, then the raw messages
 * after it (up to RAW_WINDOW, or TAIL_WINDOW when `summaryThreshold` is
 * null, since nothing is then ever due). The summary is read before the
 * messages, and the length is where the messages end, so a write landing
 * in between cannot produce a summary past the loaded history.
 */
export async function loadBranchState(db: Database, branchId: string, overrides?: SettingsChanges, options: LoadStateOptions = {}): Promise<BranchState> {
  const scope = await getBranchScope(db, branchId, { conversation: true });
  const conversation = scope.conversation ?? (await getConversationById(db, scope.branch.conversationId));
  const settings = await conversationSettings(db, conversation, overrides);
  const chain = options.chain ? await getSummaryChainByBranchId(db, scope) : undefined;
  const latest = chain ? (chain.at(-1) ?? null) : await getLatestSummaryByBranchId(db, scope);
  const from = latest?.toPosition ?? 0;
  const window = options.window ?? stateWindow(settings);
  const recent = await getHistoryByBranchId(db, scope, window === "raw" ? { fromPosition: from } : { fromPosition: from, last: window });
  // Positions are contiguous: the history ends where its last message is (at the summary's end when nothing follows it).
  const length = recent.length > 0 ? recent[recent.length - 1].position + 1 : from;
  const rawComplete = window === "raw" || recent.length < window || recent[0].position === from;
  return { scope, branch: { ...scope.branch, length }, conversation, settings, length, latest, recent, rawComplete, ...(chain ? { chain } : {}) };
}

/** The latest visible summary, or null. */
export function latestSummary(state: Pick<BranchState, "latest">): SummaryRecord | null {
  return state.latest;
}

/** First history position no summary covers. */
export function coveredUntil(state: Pick<BranchState, "latest">): number {
  return state.latest?.toPosition ?? 0;
}

/** The raw (unsummarised) part of the history, everything after the latest summary; read from the database when the state holds only its end. */
export async function loadRaw(db: Database, state: BranchState): Promise<MessageRecord[]> {
  const from = coveredUntil(state);
  if (state.rawComplete) return state.recent.filter((record) => record.position >= from);
  const until = state.recent[0]?.position ?? state.length;
  return [...(await getHistoryByBranchId(db, state.scope, { fromPosition: from, toPosition: until })), ...state.recent];
}

/** Stage 1's trigger: more non-system raw messages than `summaryThreshold`; a null threshold is never due. */
export async function isCompactionDue(db: Database, state: BranchState, settings: ResolvedSettings): Promise<boolean> {
  const threshold = settings.policy.summaryThreshold;
  // E-RB9: with the summarize processor off, nothing is summarised, whatever the threshold.
  if (threshold === null || !keepsMemory(settings.policy)) return false;
  const from = coveredUntil(state);
  const recent = state.recent.filter((record) => record.position >= from && record.message.role !== "system").length;
  if (state.rawComplete) return recent > threshold;
  // The raw part is longer than the window: the database counts what the state did not read.
  const totals = await getHistoryTotalsByBranchId(db, state.scope, { fromPosition: from, toPosition: state.recent[0]?.position ?? state.length });
  return totals.messages - totals.roles.system.messages + recent > threshold;
}

/**
 * The history's tool-pairing tail (its trailing tool results and the call
 * message before them) and the position it starts at, read further back
 * than the state's window only when the window is all tool results.
 */
export async function loadPairingTail(db: Database, state: BranchState): Promise<{ offset: number; records: MessageRecord[] }> {
  let records = state.recent;
  let offset = state.length - records.length;
  // The tail is found once the window reaches the history's start or holds a message that is not a tool result.
  while (offset > 0 && records.every((record) => record.message.role === "tool")) {
    const before = await getHistoryByBranchId(db, state.scope, { toPosition: offset, last: Math.max(TAIL_WINDOW, records.length) });
    records = [...before, ...records];
    offset -= before.length;
  }
  return { offset, records };
}

/** Rounds (E-R1) of a slice of records, with record indices relative to the slice. */
export function roundsOf(records: readonly MessageRecord[]) {
  return splitRounds(records.map((record) => record.message));
}

/** The engine messages of records. */
export function messagesOf(records: readonly MessageRecord[]): Message[] {
  return records.map((record) => record.message);
}

/** The state with records appended to the history (written, or planned). */
export function withAppended(state: BranchState, records: MessageRecord[]): BranchState {
  const length = state.length + records.length;
  return { ...state, branch: { ...state.branch, length }, length, recent: [...state.recent, ...records] };
}

/** The branch moved (a message appended, a summary written) between reading its state and writing: compute again. */
export class StaleStateError extends ConflictError {
  static override readonly marker: symbol = Symbol.for("context-lab.memory.stale-state");

  constructor(message: string) {
    super("branch", message);
    this.name = "StaleStateError";
  }
}

/**
 * Inside a joined transaction: takes the branch's write lock and checks that
 * the branch still has the history and the latest summary the writes were
 * computed from. The lock is an optimistic append of `first` (the call's
 * leading messages, if it writes messages first), or an empty one, which is
 * how lib/db locks without changing a row; returns what it appended.
 * `summary: false` skips the summary check, for writes that do not depend
 * on it (messages recorded without a compaction: a summary written
 * meanwhile only covers more, so what was not due stays not due).
 * `revision` requires the branch to be at that revision (MEM-8): nothing
 * written since the state was read or kept.
 */
export async function assertUnchanged(
  joined: Database,
  state: BranchState,
  pinnedLength?: number,
  first: NewMessage[] = [],
  options: { summary?: boolean; revision?: number } = {},
): Promise<MessageRecord[]> {
  const appended = await staleUnlessPinned(pinnedLength, () =>
    appendMessages(joined, state.branch.id, first, { expectedLength: state.length, expectedRevision: options.revision }),
  );
  if (options.summary === false) return appended;
  const latest = await getLatestSummaryByBranchId(joined, state.scope);
  if ((latest?.id ?? null) !== (latestSummary(state)?.id ?? null)) {
    // Thrown inside the transaction: what was appended is rolled back.
    throw new StaleStateError(`branch '${state.branch.name}' (${state.branch.id}) got a new summary while this one was being computed`);
  }
  return appended;
}

/**
 * An append checked against the state it was computed from: its conflict
 * (the branch moved on) is a stale state to compute again, unless the
 * caller pinned the length itself (`pinnedLength`): then its optimistic
 * append failed, which is theirs to handle.
 */
export async function staleUnlessPinned<T>(pinnedLength: number | undefined, append: () => Promise<T>): Promise<T> {
  try {
    return await append();
  } catch (error) {
    if (ConflictError.isInstance(error) && pinnedLength === undefined) throw new StaleStateError(error.message);
    throw error;
  }
}

const ATTEMPTS = 10;

/**
 * Runs `attempt` again (a fresh read, a fresh computation) while it fails
 * with StaleStateError, up to 10 times; the growing, jittered pause lets
 * writers queued on one branch go one after another instead of colliding again.
 */
export function retryOnStale<T>(attempt: () => Promise<T>): Promise<T> {
  return retryWhile(attempt, { attempts: ATTEMPTS, retryable: (error) => StaleStateError.isInstance(error), pause: (count) => Math.random() * 20 * count });
}
