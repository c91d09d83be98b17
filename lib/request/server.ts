import "server-only";
import { policyCounter, type Message, type Summarizer, type ToolDefinition } from "@/lib/context";
import {
  getArtifactOutlinesByBranchId,
  getBranchScope,
  getCheckpointOutlinesByBranchId,
  getConversationById,
  getHistoryByBranchId,
  getSummaryChainByBranchId,
  type BranchScope,
  type ConversationRecord,
  type Database,
  type MessageRecord,
  type SummaryRecord,
} from "@/lib/db";
import { compactBranch, persistPlan, planCompaction, type CompactionPlan, type CompactionResult } from "@/lib/memory/compaction";
import { isCompactionDue, loadBranchState, RAW_WINDOW, retryOnStale } from "@/lib/memory/branch-state";
import { countMessagesInSlices } from "@/lib/memory/slices";
import type { ResolvedSettings, SettingsChanges } from "@/lib/settings";
import { conversationSettings } from "@/lib/settings/server";
import { nextRequest, type NextRequest } from "./next";
import type { MemorySnapshot, SnapshotArtifact } from "./snapshot";
import { requestView, type PromptResponse } from "./view";

/**
 * A branch's persisted memory as the request builder needs it, read in a
 * few queries whatever the history's length: the summary chain, the
 * checkpoint of its latest link, the system messages it covers, and the
 * artifacts' outlines with the handles their tool messages name.
 */
export async function loadMemorySnapshot(db: Database, scope: BranchScope, length: number, chain?: readonly SummaryRecord[]): Promise<MemorySnapshot> {
  const summaries = chain ?? (await getSummaryChainByBranchId(db, scope));
  const latest = summaries.at(-1);
  const coveredUntil = latest?.toPosition ?? 0;
  const checkpoint = latest ? ((await getCheckpointOutlinesByBranchId(db, scope, { inherited: true, summaryId: latest.id })).at(-1) ?? null) : null;
  const system =
    coveredUntil > 0 ? (await getHistoryByBranchId(db, scope, { roles: ["system"], toPosition: coveredUntil })).map((record) => record.message) : [];
  const outlines = (await getArtifactOutlinesByBranchId(db, scope, { inherited: true })).filter((artifact) => artifact.position < length);
  // Only artifacts before the summary's end can be retrieved (E-RB2); their tool messages name the reload handles.
  const retrievable = outlines.filter((artifact) => artifact.position < coveredUntil);
  const handles = new Map<string, string>();
  if (retrievable.length > 0) {
    const records = await getHistoryByBranchId(db, scope, { positions: retrievable.map((artifact) => artifact.position), toPosition: coveredUntil });
    for (const record of records) {
      const { artifactId, handle } = record.metadata ?? {};
      if (typeof artifactId === "string" && typeof handle === "string") handles.set(artifactId, handle);
    }
  }
  const artifacts: SnapshotArtifact[] = outlines.map((artifact) => ({
    id: artifact.id,
    branchId: artifact.branchId,
    toolName: artifact.toolName,
    summary: artifact.summary,
    position: artifact.position,
    ...(handles.has(artifact.id) ? { handle: handles.get(artifact.id) } : {}),
  }));
  return {
    branchId: scope.branch.id,
    coveredUntil,
    system,
    chain: summaries.map(({ id, branchId, fromPosition, toPosition, text }) => ({ id, branchId, fromPosition, toPosition, text })),
    checkpoint: checkpoint ? { id: checkpoint.id, version: checkpoint.version } : null,
    artifacts,
  };
}

/** Options of `prepareNextRequest`. */
export interface PrepareNextRequestOptions {
  /** A user turn not recorded yet. */
  current?: Message | null;
  /** Overrides of the conversation's stored settings for this request. */
  settings?: SettingsChanges;
  /** Default: the conversation's tools. */
  tools?: ToolDefinition[];
  /** Default false: a preview writes nothing. True: compact when due, and when that gets an over-budget request under the limit. */
  compact?: boolean;
  /**
   * Writes the persisted summaries (an upstream model, say). The request's own
   * processors always use the engine's deterministic summarizer, so the
   * playground, which cannot call a model, builds the very same request.
   */
  summarizer?: Summarizer;
}

/** The next request of a branch, ready to send or refused, with what was persisted first. */
export interface PreparedRequest {
  request: NextRequest;
  settings: ResolvedSettings;
  snapshot: MemorySnapshot;
  /** A compaction this call persisted: due by threshold, or to fit the budget. */
  compaction: CompactionResult | null;
  /** History length the request was built from. */
  length: number;
}

/** What a request is built from, read so the summary comes before the messages after it. */
interface RequestState {
  scope: BranchScope;
  conversation: ConversationRecord;
  settings: ResolvedSettings;
  snapshot: MemorySnapshot;
  /** The raw history: every message from the summary's end on. */
  records: MessageRecord[];
  length: number;
}

async function loadRequestState(db: Database, branchId: string, overrides: SettingsChanges | undefined): Promise<RequestState> {
  const scope = await getBranchScope(db, branchId, { conversation: true });
  const conversation = scope.conversation ?? (await getConversationById(db, scope.branch.conversationId));
  const settings = await conversationSettings(db, conversation, overrides);
  const chain = await getSummaryChainByBranchId(db, scope);
  const from = chain.at(-1)?.toPosition ?? 0;
  const records = await getHistoryByBranchId(db, scope, { fromPosition: from });
  // Positions are contiguous: the history ends where its last message is (at the summary's end when nothing follows).
  const length = records.length > 0 ? records[records.length - 1].position + 1 : from;
  return { scope, conversation, settings, records, length, snapshot: await loadMemorySnapshot(db, scope, length, chain) };
}

async function build(
  state: Pick<RequestState, "conversation" | "settings" | "snapshot">,
  records: readonly MessageRecord[],
  options: PrepareNextRequestOptions,
): Promise<NextRequest> {
  // RL-ST1: the engine counts a cold history in one synchronous pass; counted here first, in slices, it finds every count cached.
  await countMessagesInSlices(
    policyCounter(state.settings.policy),
    records.map((record) => record.message),
  );
  return nextRequest({
    records,
    snapshot: state.snapshot,
    settings: state.settings,
    tools: options.tools ?? state.conversation.tools ?? [],
    current: options.current,
  });
}

/** The snapshot as it would be once `plan` is written: its summary ends the chain, under the checkpoint version it will get. */
async function plannedSnapshot(db: Database, scope: BranchScope, snapshot: MemorySnapshot, plan: CompactionPlan): Promise<MemorySnapshot> {
  const own = await getCheckpointOutlinesByBranchId(db, scope);
  const version = Math.max(0, ...own.map((checkpoint) => checkpoint.version)) + 1;
  const planned = { id: "(pending)", branchId: scope.branch.id, fromPosition: plan.fromPosition, toPosition: plan.toPosition, text: plan.text };
  const system = [
    ...snapshot.system,
    ...plan.raw.filter((record) => record.position < plan.toPosition && record.message.role === "system").map((record) => record.message),
  ];
  return { ...snapshot, coveredUntil: plan.toPosition, system, chain: [...snapshot.chain, planned], checkpoint: { id: "(pending)", version } };
}

/**
 * A compaction that gets an over-budget request under the limit, persisted;
 * null when none would. It is tried with the deterministic summarizer first,
 * so a request no summary can save makes no call to a summarizing model; only
 * a compaction that fits is written with the configured summarizer (and only
 * if its text fits too).
 */
async function budgetCompaction(db: Database, branchId: string, state: RequestState, options: PrepareNextRequestOptions): Promise<CompactionResult | null> {
  const full = await loadBranchState(db, branchId, options.settings, { window: RAW_WINDOW });
  if (full.length !== state.length) return null;
  const fits = async (plan: CompactionPlan | null) =>
    plan !== null && (await build({ ...state, snapshot: await plannedSnapshot(db, state.scope, state.snapshot, plan) }, state.records, options)).verdict.ok;
  const trial = await planCompaction(db, full, full.settings);
  if (!(await fits(trial))) return null;
  const plan = options.summarizer ? await planCompaction(db, full, full.settings, options.summarizer) : trial;
  if (!(await fits(plan))) return null;
  return persistPlan(db, full, plan!, full.settings, "budget");
}

/**
 * Whether the request `compact` would make fits, tried with the deterministic
 * summarizer and writing nothing: after the compaction due by threshold, or
 * else after the one a budget stop would try (E-RB7).
 */
async function wouldFit(db: Database, branchId: string, state: RequestState, options: PrepareNextRequestOptions): Promise<boolean> {
  const due = await loadBranchState(db, branchId, options.settings);
  const threshold = (await isCompactionDue(db, due, due.settings)) ? await planCompaction(db, due, due.settings) : null;
  const snapshot = threshold ? await plannedSnapshot(db, state.scope, state.snapshot, threshold) : state.snapshot;
  if ((await build({ ...state, snapshot }, state.records, options)).verdict.ok) return true;
  const full = await loadBranchState(db, branchId, options.settings, { window: RAW_WINDOW });
  const rescue = full.length === state.length ? await planCompaction(db, full, full.settings) : null;
  return (
    rescue !== null && (await build({ ...state, snapshot: await plannedSnapshot(db, state.scope, state.snapshot, rescue) }, state.records, options)).verdict.ok
  );
}

/**
 * The next request of a branch (E-RB1–E-RB7), the one every server surface sends
 * or shows. With `compact`, a branch past its summary threshold is compacted
 * first; a request over budget gets a compaction that is persisted only if
 * the request then fits. A request that would be refused whatever is
 * compacted leaves the branch as it was and calls no summarizing model (E-RB7).
 * The same stored state and options always give the same request.
 */
export async function prepareNextRequest(db: Database, branchId: string, options: PrepareNextRequestOptions = {}): Promise<PreparedRequest> {
  return retryOnStale(async () => {
    const before = await loadRequestState(db, branchId, options.settings);
    const compact = options.compact === true && (await wouldFit(db, branchId, before, options));
    let compaction = compact ? await compactBranch(db, branchId, { summarizer: options.summarizer, settings: options.settings }) : null;
    let state = compaction ? await loadRequestState(db, branchId, options.settings) : before;
    let request = await build(state, state.records, options);
    if (!request.verdict.ok && compact) {
      const rescue = await budgetCompaction(db, branchId, state, options);
      if (rescue) {
        compaction = rescue;
        state = await loadRequestState(db, branchId, options.settings);
        request = await build(state, state.records, options);
      }
    }
    return { request, settings: state.settings, snapshot: state.snapshot, compaction, length: state.length };
  });
}

export function promptResponse(prepared: PreparedRequest): PromptResponse {
  const status = !prepared.request.verdict.ok ? "budget_exceeded" : prepared.compaction ? "compacted" : "ok";
  return { ...requestView(prepared.request, prepared.settings), status, compaction: prepared.compaction, length: prepared.length };
}
