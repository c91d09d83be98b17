import "server-only";
import { ContextError, extractiveSummarizer, isFinalAnswer, policyCounter, type Summarizer } from "@/lib/context";
import { BoundedMap } from "@/lib/context/bounded-map";
import {
  createCheckpoint,
  createSummary,
  getArtifactOutlinesByBranchId,
  getHistoryByBranchId,
  getHistoryTotalsByBranchId,
  getOffloadedContentOutlinesByBranchId,
  getSummaryChainLengthByBranchId,
  type ArtifactRecord,
  type CheckpointRecord,
  type Database,
  type HistoryTotals,
  type JsonObject,
  type MessageRecord,
  type SummaryRecord,
} from "@/lib/db";
import type { ResolvedSettings, SettingsChanges } from "@/lib/settings";
import {
  assertUnchanged,
  coveredUntil,
  isCompactionDue,
  latestSummary,
  loadBranchState,
  loadRaw,
  messagesOf,
  RAW_WINDOW,
  retryOnStale,
  roundsOf,
  withAppended,
  type BranchState,
  type CheckpointLists,
} from "./branch-state";
import { yieldToIo } from "./slices";
import { inTransaction } from "./transaction";

/** What a compaction wrote: the new link of the summary chain and the checkpoint that points at it. */
export interface CompactionResult {
  summary: SummaryRecord;
  checkpoint: CheckpointRecord;
  /** First history position the summary chain no longer covers: the raw part starts here. */
  coveredUntil: number;
}

/** Why a compaction ran; recorded in the checkpoint's metadata. */
export type CompactionReason = "threshold" | "forced" | "budget";

/** A summary computed but not yet written. */
export interface CompactionPlan {
  fromPosition: number;
  toPosition: number;
  text: string;
  tokens: number;
  /** The summary the new one extends (its text was the summarizer's `previousSummary`). */
  previous: SummaryRecord | null;
  /** Non-system messages the summary stands for. */
  summarized: number;
  /** Their stored tokens. */
  summarizedTokens: number;
  /** The raw part the plan was computed from: every message from `fromPosition` to the end of the history. */
  raw: MessageRecord[];
}

/** Raw rounds stage 1 never summarises: the 2 most recent, an incomplete one included (MEM-4). */
export const KEPT_ROUNDS = 2;

/**
 * Computes the next link of the chain: everything raw before the 2 most
 * recent rounds, cut at a round boundary so no tool pair is split, summarised
 * as an extension of the latest summary. Null when there is nothing older
 * than those rounds. Writes nothing.
 */
export async function planCompaction(
  db: Database,
  state: BranchState,
  settings: ResolvedSettings,
  summarizer: Summarizer = extractiveSummarizer,
): Promise<CompactionPlan | null> {
  const from = coveredUntil(state);
  const raw = await loadRaw(db, state);
  // RL-ST3: each pass over a long raw part (rounds, the covered messages, the summary) runs in its own turn of the event loop.
  await yieldToIo();
  const rounds = roundsOf(raw);
  if (rounds.length <= KEPT_ROUNDS) return null;
  const to = from + rounds[rounds.length - KEPT_ROUNDS].start;
  await yieldToIo();
  // System messages are static and sent whole with every request (MEM-4), so they are not summarised.
  const covered = raw.slice(0, to - from).filter((record) => record.message.role !== "system");
  if (covered.length === 0) return null;
  const previous = latestSummary(state);
  const messages = messagesOf(covered);
  await yieldToIo();
  const text = await summarizer(messages, { purpose: "conversation", previousSummary: previous?.text });
  if (typeof text !== "string" || text.trim().length === 0) {
    throw new ContextError(
      `the summarizer returned ${typeof text === "string" ? "an empty text" : typeof text} for messages ${from}–${to - 1}; nothing was written`,
      {
        where: `summary of messages ${from}–${to - 1}`,
      },
    );
  }
  return {
    fromPosition: from,
    toPosition: to,
    text,
    tokens: policyCounter(settings.policy).countText(text),
    previous,
    summarized: covered.length,
    summarizedTokens: covered.reduce((sum, record) => sum + record.tokens, 0),
    raw,
  };
}

/**
 * What a checkpoint says about the history besides the plan's raw part,
 * read before the write transaction: totals of the history before the raw
 * part (immutable: messages are never rewritten), whether its last
 * non-system message ends a round (only when the raw part has none), and
 * how long the chain is (it cannot change unnoticed: any new link is the
 * latest, which the write checks).
 */
export interface CompactionFacts {
  before: HistoryTotals;
  /** The last non-system message before the raw part ends a round (true when there is none). */
  beforeEndsRound: boolean;
  chainLength: number;
}

/**
 * Facts a compaction of this process left for the next one on the same
 * branch, by `<branch id>:<summary id>`: the totals of the history before the
 * summary's end and the chain's length up to it. Both are about rows that
 * never change, and are kept only once the compaction committed, so the next
 * compaction reads them instead of counting a history that grows without end.
 */
const CARRIED_ENTRIES = 1_000;
const carried = new BoundedMap<string, { before: HistoryTotals; chainLength: number }>(CARRIED_ENTRIES);

export async function compactionFacts(db: Database, state: BranchState, plan: CompactionPlan): Promise<CompactionFacts> {
  const known = plan.previous ? carried.get(`${state.branch.id}:${plan.previous.id}`) : undefined;
  // A branch without a summary whose state holds all of it (its first compaction) is counted from the state.
  const whole = state.latest === null && state.rawComplete;
  const before =
    known?.before ??
    (whole
      ? totalsOf(state.recent.filter((record) => record.position < plan.fromPosition))
      : await getHistoryTotalsByBranchId(db, state.scope, { toPosition: plan.fromPosition }));
  let beforeEndsRound = true;
  if (!plan.raw.some((record) => record.message.role !== "system") && before.messages > before.roles.system.messages) {
    const [last] = await getHistoryByBranchId(db, state.scope, { toPosition: plan.fromPosition, roles: ["user", "assistant", "tool"], last: 1 });
    beforeEndsRound = isFinalAnswer(last.message);
  }
  return { before, beforeEndsRound, chainLength: known?.chainLength ?? (whole ? 0 : await getSummaryChainLengthByBranchId(db, state.scope)) };
}

/** Totals of records, as `getHistoryTotalsByBranchId` counts them. */
function totalsOf(records: readonly MessageRecord[]): HistoryTotals {
  const roles: HistoryTotals["roles"] = {
    system: { messages: 0, tokens: 0 },
    user: { messages: 0, tokens: 0 },
    assistant: { messages: 0, tokens: 0 },
    tool: { messages: 0, tokens: 0 },
  };
  let tokens = 0;
  let finalAnswers = 0;
  for (const record of records) {
    const role = roles[record.message.role];
    role.messages += 1;
    role.tokens += record.tokens;
    tokens += record.tokens;
    if (isFinalAnswer(record.message)) finalAnswers += 1;
  }
  return { messages: records.length, tokens, roles, finalAnswers };
}

function addTotals(left: HistoryTotals, right: HistoryTotals): HistoryTotals {
  const roles = { ...left.roles };
  for (const role of Object.keys(roles) as (keyof HistoryTotals["roles"])[]) {
    roles[role] = { messages: left.roles[role].messages + right.roles[role].messages, tokens: left.roles[role].tokens + right.roles[role].tokens };
  }
  return { messages: left.messages + right.messages, tokens: left.tokens + right.tokens, roles, finalAnswers: left.finalAnswers + right.finalAnswers };
}

/** After a compaction committed: what the next compaction of the branch needs, carried over (the oldest entries make room). */
export function carryFacts(state: BranchState, plan: CompactionPlan, facts: CompactionFacts, result: CompactionResult): void {
  const summarized = plan.raw.filter((record) => record.position < plan.toPosition);
  carried.set(`${state.branch.id}:${result.summary.id}`, { before: addTotals(facts.before, totalsOf(summarized)), chainLength: facts.chainLength + 1 });
}

/**
 * The checkpoint's context state: small, JSON, and keyed so the playground's
 * checkpoint diff reads as what changed (the engine's state keys where one
 * exists). `raw` is the history from `facts.before` on (up to its end).
 */
export function checkpointValues(
  state: BranchState,
  settings: ResolvedSettings,
  summary: SummaryRecord,
  facts: CompactionFacts,
  raw: readonly MessageRecord[],
  handles: string[],
  artifactIds: string[],
): JsonObject {
  const kept = raw.filter((record) => record.position >= summary.toPosition);
  // Rounds (E-R1) of the whole history: one per final answer, plus the open one when the last non-system message is not one.
  const lastOpen = raw.findLast((record) => record.message.role !== "system");
  const open = lastOpen ? !isFinalAnswer(lastOpen.message) : !facts.beforeEndsRound;
  const rounds = facts.before.finalAnswers + raw.filter((record) => isFinalAnswer(record.message)).length + (open ? 1 : 0);
  return {
    branch_id: state.branch.id,
    summary: {
      id: summary.id,
      fromPosition: summary.fromPosition,
      toPosition: summary.toPosition,
      tokens: summary.tokens,
      extendsId: summary.extendsId,
      chainLength: facts.chainLength + 1,
    },
    history: {
      length: state.length,
      rounds,
      rawFrom: summary.toPosition,
      rawMessages: state.length - summary.toPosition,
      rawRounds: roundsOf(kept).length,
    },
    offloaded_messages: handles,
    artifacts: artifactIds,
    settings: {
      mode: settings.policy.mode,
      model: settings.policy.model,
      encoding: settings.policy.encoding,
      historyRounds: settings.policy.historyRounds,
      summaryThreshold: settings.policy.summaryThreshold,
      tokenBudget: settings.policy.tokenBudget,
      contextWindow: settings.policy.contextWindow,
      maxOutputTokens: settings.policy.maxOutputTokens,
      artifactThreshold: settings.artifactThreshold,
    },
    needs_summary: false,
    token_usage: tokenUsage(facts.before, raw, summary),
  };
}

/**
 * Stored message tokens: the whole history = system + summarized + raw; what
 * the next request carries instead (`context`) = system + summary + raw.
 */
function tokenUsage(before: HistoryTotals, raw: readonly MessageRecord[], summary: SummaryRecord): JsonObject {
  // Everything before the raw part is before the new summary's end.
  let system = before.roles.system.tokens;
  let summarized = before.tokens - before.roles.system.tokens;
  let kept = 0;
  for (const record of raw) {
    if (record.message.role === "system") system += record.tokens;
    else if (record.position < summary.toPosition) summarized += record.tokens;
    else kept += record.tokens;
  }
  const history = system + summarized + kept;
  const context = system + summary.tokens + kept;
  return { history, system, summarized, summary: summary.tokens, raw: kept, context, saved: history - context };
}

/** What a checkpoint of the branch as `state` read it lists: the offloaded handles and the artifacts of its history. */
async function readLists(joined: Database, state: BranchState): Promise<CheckpointLists> {
  return {
    handles: (await getOffloadedContentOutlinesByBranchId(joined, state.scope, { inherited: true })).map((content) => content.handle),
    artifactIds: (await getArtifactOutlinesByBranchId(joined, state.scope, { inherited: true }))
      .filter((artifact) => artifact.position < state.length)
      .map((artifact) => artifact.id),
  };
}

/**
 * Writes a planned compaction on a joined client: the summary (extending the
 * latest visible one) and a checkpoint of the resulting state under the
 * branch's next version. `state` is the branch as read for the plan, its
 * latest summary checked by the caller under the branch's lock;
 * `appended` and `added` are the messages and artifacts this transaction
 * wrote before (the plan already counts those messages).
 */
export async function writeCompaction(
  joined: Database,
  state: BranchState,
  plan: CompactionPlan,
  facts: CompactionFacts,
  settings: ResolvedSettings,
  reason: CompactionReason,
  written: { messages: MessageRecord[]; artifacts: ArtifactRecord[] } = { messages: [], artifacts: [] },
): Promise<CompactionResult> {
  const after = withAppended(state, written.messages);
  const summary = await createSummary(joined, state.scope, {
    fromPosition: plan.fromPosition,
    toPosition: plan.toPosition,
    text: plan.text,
    tokens: plan.tokens,
    // The caller checked under the lock that the branch still has it (its summary, or its revision).
    previous: latestSummary(state),
  });
  const listed = state.listed ?? (await readLists(joined, state));
  const { handles } = listed;
  // The artifacts of the history as read, then this call's own.
  const artifactIds = [...listed.artifactIds, ...written.artifacts.map((artifact) => artifact.id)];
  const values = checkpointValues(after, settings, summary, facts, plan.raw, handles, artifactIds);
  const checkpoint = await createCheckpoint(joined, state.scope, {
    values,
    tokenUsage: values.token_usage as JsonObject,
    artifactRefs: artifactIds,
    messageCount: after.length,
    summaryId: summary.id,
    metadata: { source: "lib/memory", reason, summarized: plan.summarized, summarizedTokens: plan.summarizedTokens },
  });
  return { summary, checkpoint, coveredUntil: summary.toPosition };
}

/** Options of `compactBranch`. */
export interface CompactBranchOptions {
  /** Compact even below the threshold (or with summaries disabled), as long as there is something older than the 2 kept rounds. */
  force?: boolean;
  /** Default: the engine's `extractiveSummarizer`. */
  summarizer?: Summarizer;
  /** Overrides of the conversation's stored settings (the threshold, the encoding). */
  settings?: SettingsChanges;
}

/**
 * A compaction on demand (MEM-4, MEM-5): when the branch is due (or `force`),
 * persists the next summary and a checkpoint; null when nothing is due. The
 * summarizer runs before the write transaction, so a slow model never holds
 * the branch's lock; a branch that moved meanwhile is read and summarised again.
 */
export async function compactBranch(db: Database, branchId: string, options: CompactBranchOptions = {}): Promise<CompactionResult | null> {
  return retryOnStale(async () => {
    // A forced compaction reads the whole raw part whatever the threshold.
    const state = await loadBranchState(db, branchId, options.settings, options.force ? { window: RAW_WINDOW } : {});
    const { settings } = state;
    const due = await isCompactionDue(db, state, settings);
    if (!options.force && !due) return null;
    const plan = await planCompaction(db, state, settings, options.summarizer);
    if (!plan) return null;
    return persistPlan(db, state, plan, settings, due ? "threshold" : "forced");
  });
}

/** Writes a plan computed from `state` in one transaction, after checking the branch did not move. */
export async function persistPlan(
  db: Database,
  state: BranchState,
  plan: CompactionPlan,
  settings: ResolvedSettings,
  reason: CompactionReason,
): Promise<CompactionResult> {
  const facts = await compactionFacts(db, state, plan);
  const result = await inTransaction(db, async (joined) => {
    await assertUnchanged(joined, state);
    return writeCompaction(joined, state, plan, facts, settings, reason);
  });
  carryFacts(state, plan, facts, result);
  return result;
}
