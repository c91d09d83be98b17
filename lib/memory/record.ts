import "server-only";
import {
  contentHandle,
  Context,
  ContextError,
  isToolCallMessage,
  pairToolCalls,
  sanitizeHistory,
  policyCounter,
  ToolResultOffloader,
  type HistoryRepair,
  type Message,
  type Summarizer,
  type ToolResultPayload,
} from "@/lib/context";
import {
  appendMessages,
  branchRevision,
  ConflictError,
  createArtifact,
  findOffloadedContentOutlineByHandle,
  getOffloadedContentByHandle,
  InvalidArgumentError,
  putOffloadedContent,
  type ArtifactRecord,
  type BranchScope,
  type ConversationRecord,
  type Database,
  type JsonObject,
  type MessageRecord,
  type NewMessage,
} from "@/lib/db";
import { runInQueue } from "@/lib/db/queue";
import { createSlicer, yieldToIo } from "./slices";
import { lockBranch, retryConflicts, type BranchRow } from "@/lib/db/run";
import { carryFacts, compactionFacts, planCompaction, writeCompaction, type CompactionResult } from "./compaction";
import type { ResolvedSettings } from "@/lib/settings";
import {
  assertUnchanged,
  isCompactionDue,
  loadBranchState,
  loadPairingTail,
  messagesOf,
  retryOnStale,
  staleUnlessPinned,
  withAppended,
  type BranchState,
} from "./branch-state";
import { appendMessagesGrouped } from "@/lib/db/append-group";
import { inTransaction } from "./transaction";
import { forgetState, keepCompacted, keepState, keptState } from "./kept-state";
import { headOf } from "./head";

/** Options of `recordMessages`. */
export interface RecordMessagesOptions {
  /** Summarizes for stage 1 when this turn makes the branch due; default the engine's `extractiveSummarizer`. */
  summarizer?: Summarizer;
  /** Optimistic append: ConflictError unless the branch's history has exactly this many messages. */
  expectedLength?: number;
  /** Metadata to store with each message, by index (the memory layer adds `artifactId`, `handle`, `originalSize` to offloaded results). */
  metadata?: JsonObject[];
  /** Default true. False: store the messages only; a caller about to build a request compacts then, if it will be sent (E-RB7). */
  compact?: boolean;
  /**
   * The branch's conversation as the caller just read it. Given, the
   * branch's state is kept after the write and the next write given one
   * starts from it, unless anything was written to the branch meanwhile
   * (MEM-8): a writer recording turn after turn reads nothing back.
   */
  conversation?: ConversationRecord;
}

/** What `recordMessages` stored. */
export interface RecordMessagesResult {
  /** The messages as stored: large tool results hold a pointer to their artifact. */
  messages: MessageRecord[];
  /** Large tool results turned into artifacts. */
  artifacts: ArtifactRecord[];
  /** Stage 1: written when this turn made the branch cross its threshold. */
  compaction: CompactionResult | null;
}

/** A message ready to store, with the artifact it becomes a pointer to. */
interface PreparedMessage {
  stored: NewMessage;
  offload?: { handle: string; content: string; toolCallId: string | null; toolName: string | null; summary: string; tokens: number };
}

/**
 * Records a turn's messages on a branch (MEM-1–MEM-3):
 * checks they keep tool pairs intact against the branch's tail, turns tool
 * results over `artifactThreshold` into an artifact plus offloaded content and
 * stores a pointer (head + `[[OFFLOADED: handle=...]]`) in their place, counts
 * tokens with the conversation's encoding, then compacts if the branch is due.
 * One transaction: if anything fails, nothing of the call remains.
 */
export async function recordMessages(db: Database, branchId: string, messages: Message[], options: RecordMessagesOptions = {}): Promise<RecordMessagesResult> {
  // One turn at a time per branch in this process, so concurrent writers queue instead of colliding; deadlocks run again.
  return runInQueue(`branch:${branchId}`, () => retryConflicts(() => recordNow(db, branchId, messages, options)));
}

async function recordNow(db: Database, branchId: string, messages: Message[], options: RecordMessagesOptions): Promise<RecordMessagesResult> {
  if (options.metadata !== undefined && options.metadata.length !== messages.length) {
    throw new InvalidArgumentError("metadata", `metadata has ${options.metadata.length} entries for ${messages.length} messages: give one per message`);
  }
  return retryOnStale(async () => {
    const kept = options.conversation ? await keptState(db, branchId, options.conversation) : null;
    const state = kept ?? (await loadBranchState(db, branchId));
    try {
      const { result, compacted } = await recordOn(db, state, messages, options);
      // MEM-8: kept when the write appended the messages, and compacted or not, but made no artifact.
      if (!options.conversation || result.artifacts.length > 0) forgetState(db, branchId);
      else if (result.compaction && compacted) keepCompacted(db, state, result.messages, result.compaction, compacted);
      else keepState(db, state, result.messages);
      return result;
    } catch (error) {
      forgetState(db, branchId);
      throw error;
    }
  });
}

/** One attempt of `recordMessages` from a read (or kept) state of the branch; with a compaction, the branch's row as the write left it. */
async function recordOn(
  db: Database,
  state: BranchState,
  messages: Message[],
  options: RecordMessagesOptions,
): Promise<{ result: RecordMessagesResult; compacted: BranchRow | null }> {
  const branchId = state.branch.id;
  if (options.expectedLength !== undefined && options.expectedLength !== state.length) {
    throw new ConflictError(
      "branch",
      `branch '${state.branch.name}' (${branchId}) has ${state.length} messages, not the expected ${options.expectedLength}: reload its history and retry`,
    );
  }
  const { settings } = state;
  // Pairing is checked against the history's tail: its trailing tool results and the call before them.
  const tail = await loadPairingTail(db, state);
  assertPairing(messagesOf(tail.records), messages, tail.offset);
  const prepared = await prepareMessages(db, state.scope, messagesOf(tail.records), messages, settings, options.metadata);
  // Stage 1 is computed against the history as it will be, before any write: a failing summarizer leaves nothing behind.
  const after = withAppended(state, virtualRecords(state, prepared));
  const plan = options.compact !== false && (await isCompactionDue(db, after, settings)) ? await planCompaction(db, after, settings, options.summarizer) : null;
  const facts = plan ? await compactionFacts(db, after, plan) : null;
  if (plan === null && options.conversation && prepared.every((message) => message.offload === undefined)) {
    // MEM-8, DB-G10: a kept state's plain append is the whole transaction; on PostgreSQL it shares one with other branches' appends.
    const messages = await staleUnlessPinned(options.expectedLength, () =>
      appendMessagesGrouped(
        db,
        branchId,
        prepared.map((message) => message.stored),
        { expectedLength: state.length, expectedRevision: branchRevision(state.scope) },
      ),
    );
    return { result: { messages, artifacts: [], compaction: null }, compacted: null };
  }
  const result = await inTransaction(db, async (joined) => {
    // The messages before the first artifact are appended by the check itself: one lock, not two.
    const lead = prepared.findIndex((message) => message.offload !== undefined);
    const head = lead === -1 ? prepared : prepared.slice(0, lead);
    const first = await assertUnchanged(
      joined,
      state,
      options.expectedLength,
      head.map((message) => message.stored),
      // MEM-8: a state kept or read for keeping holds only at its revision, which every summary written since would have moved.
      options.conversation ? { summary: false, revision: branchRevision(state.scope) } : { summary: plan !== null },
    );
    const rest = await writeMessages(joined, branchId, prepared.slice(head.length));
    const records = [...first, ...rest.records];
    const { artifacts } = rest;
    const compaction = plan && facts ? await writeCompaction(joined, state, plan, facts, settings, "threshold", { messages: records, artifacts }) : null;
    // MEM-8: a compaction bumps the branch's counters more than once; the state kept after it takes them as they are now.
    const compacted = compaction && options.conversation ? await lockBranch(joined, branchId) : null;
    return { result: { messages: records, artifacts, compaction }, compacted };
  });
  if (plan && facts && result.result.compaction) carryFacts(after, plan, facts, result.result.compaction);
  return result;
}

/** Appends in order; an artifact and its content are created right before their tool message, so they take its position. */
async function writeMessages(
  joined: Database,
  branchId: string,
  prepared: PreparedMessage[],
): Promise<{ records: MessageRecord[]; artifacts: ArtifactRecord[] }> {
  const records: MessageRecord[] = [];
  const artifacts: ArtifactRecord[] = [];
  let pending: NewMessage[] = [];
  const flush = async () => {
    if (pending.length > 0) records.push(...(await appendMessages(joined, branchId, pending)));
    pending = [];
  };
  for (const { stored, offload } of prepared) {
    if (!offload) {
      pending.push(stored);
      continue;
    }
    await flush();
    const { handle, content, toolCallId, toolName, summary, tokens } = offload;
    const artifact = await createArtifact(joined, branchId, { toolCallId, toolName, content, summary, tokens });
    await putOffloadedContent(joined, branchId, { handle, kind: "tool_result", content });
    artifacts.push(artifact);
    pending.push({ ...stored, metadata: { ...stored.metadata, artifactId: artifact.id, handle, originalSize: content.length } });
  }
  await flush();
  return { records, artifacts };
}

/**
 * Pointer contents, artifacts to create and token counts, all computed before
 * anything is written. `tail` is the history's pairing tail: once pairing
 * holds, every new tool result answers a call in it or among `messages`.
 */
async function prepareMessages(
  db: Database,
  scope: BranchScope,
  tail: Message[],
  messages: Message[],
  settings: ResolvedSettings,
  metadata: JsonObject[] | undefined,
): Promise<PreparedMessage[]> {
  const counter = policyCounter(settings.policy);
  // Handles the branch already sees holding other content: a pointer must never resolve to someone else's text.
  const blocked = new Set<string>();
  // The engine's own offloader words the pointer, so stored turns read like the pipeline's (E-O3); one context keeps handles unique within the turn.
  const offloader = new ToolResultOffloader({
    maxSize: settings.artifactThreshold,
    createHandle: (content, taken) => contentHandle(content, (handle) => taken(handle) || blocked.has(handle)),
  });
  const context = new Context(`record:${scope.branch.id}`);
  const seen = [...tail, ...messages];
  // E-P2: a result's call is the one the engine's walk pairs it with, so repeated ids name the right tool.
  const callOf = new Map(pairToolCalls(seen).pairs.map((pair) => [pair.resultAt, seen[pair.callAt].tool_calls![pair.callOrdinal]]));
  const prepared: PreparedMessage[] = [];
  // RL-ST3: counting a long append's tokens runs in slices, so other requests are answered meanwhile.
  const slicer = createSlicer();
  for (const [index, message] of messages.entries()) {
    await slicer.step();
    // E-T10: a long text is counted in steps first; the counts below find it counted.
    await counter.countMessageInSteps(message, yieldToIo);
    const extra = metadata?.[index] ?? null;
    const plain = () => prepared.push({ stored: { message, tokens: counter.countMessage(message), metadata: extra } });
    if (message.role !== "tool" || typeof message.content !== "string") {
      plain();
      continue;
    }
    const content = message.content;
    const call = callOf.get(tail.length + index);
    const toolName = message.name ?? call?.function.name ?? null;
    const offload = async () => {
      const payload: ToolResultPayload = { tool_result: content, tool_name: toolName ?? undefined, tool_call_id: message.tool_call_id };
      await offloader.process(context, payload);
      return payload;
    };
    let payload = await offload();
    while (payload.offload_handle !== undefined && (await isTakenByOther(db, scope, payload.offload_handle, content))) {
      blocked.add(payload.offload_handle);
      payload = await offload();
    }
    if (payload.offload_handle === undefined) {
      plain();
      continue;
    }
    const pointer: Message = { ...message, content: payload.tool_result };
    prepared.push({
      stored: { message: pointer, tokens: counter.countMessage(pointer), metadata: extra ?? {} },
      offload: {
        handle: payload.offload_handle,
        content,
        toolCallId: message.tool_call_id ?? null,
        toolName,
        summary: artifactSummary(toolName, call?.function.arguments, content),
        tokens: await counter.countTextInSteps(content, yieldToIo),
      },
    });
  }
  return prepared;
}

/**
 * True when the branch already sees different content under `handle` (a
 * 48-bit hash collision, or a hand-made handle). The stored content is read
 * only when its size matches.
 */
async function isTakenByOther(db: Database, scope: BranchScope, handle: string, content: string): Promise<boolean> {
  const stored = await findOffloadedContentOutlineByHandle(db, scope, handle);
  if (stored === null) return false;
  if (stored.size !== content.length) return true;
  return (await getOffloadedContentByHandle(db, scope, handle)).content !== content;
}

/** The retrieval summary of an artifact: which tool, called how, and the head of what it returned (extractive, deterministic). */
export function artifactSummary(toolName: string | null, toolArguments: string | undefined, content: string): string {
  const call = `${toolName ?? "tool"}(${headOf(toolArguments ?? "", 200)})`;
  return `${call} returned ${content.length} characters, stored as an artifact.\n${headOf(content, 600)}`;
}

/** The call a tool result at `index` answers: the nearest earlier assistant message calling that id. */
/** Prepared messages as unsaved records after the history, for planning stage 1. */
function virtualRecords(state: BranchState, prepared: PreparedMessage[]): MessageRecord[] {
  const start = state.length;
  return prepared.map(({ stored }, index) => ({
    id: "",
    branchId: state.branch.id,
    position: start + index,
    tokens: stored.tokens,
    createdAt: "",
    metadata: stored.metadata ?? null,
    message: stored.message,
  }));
}

/**
 * Refuses new messages that would break tool pairing (E-P1) against the
 * branch's tail: the last call message and its results. Repairs the tail
 * already needed (an imported orphan) are not the new messages' fault.
 * `history` may be the end of the history from position `offset` on, as
 * long as it holds that tail.
 */
export function assertPairing(history: readonly Message[], added: readonly Message[], offset = 0): void {
  let start = history.length;
  while (start > 0 && history[start - 1].role === "tool") start -= 1;
  if (start > 0 && isToolCallMessage(history[start - 1])) start -= 1;
  const tail = history.slice(start);
  const key = (repair: HistoryRepair) => `${repair.kind}:${repair.index}:${repair.toolCallId ?? ""}`;
  const known = new Set(sanitizeHistory(tail, { allowPendingToolCalls: true }).repairs.map(key));
  const combined = [...tail, ...added];
  const repair = sanitizeHistory(combined, { allowPendingToolCalls: true }).repairs.find(
    (candidate) => candidate.kind !== "empty-assistant-dropped" && !known.has(key(candidate)),
  );
  if (!repair) return;
  let offender = repair.index;
  let reason: string;
  if (repair.kind === "unanswered-tool-call") {
    // The call is fine; the first non-tool message after its block is what leaves it unanswered.
    offender = combined.findIndex((message, index) => index > repair.index && message.role !== "tool");
    const callPosition = offset + start + repair.index;
    reason = `tool call '${repair.toolCallId}' of message ${callPosition} has no result, so a ${combined[offender].role} message cannot follow yet`;
  } else if (repair.kind === "duplicate-tool-result") {
    reason = `tool call '${repair.toolCallId}' already has a result`;
  } else {
    reason = `tool result '${repair.toolCallId ?? "?"}' answers no tool call of the assistant message before it`;
  }
  const index = offender - tail.length;
  throw new ContextError(`messages[${index}] (history position ${offset + start + offender}) would break tool pairing: ${reason}; nothing was recorded`, {
    where: `messages[${index}]`,
  });
}
