import {
  comparePolicies,
  Context,
  ContextError,
  DEFAULT_ENCODING,
  type CompareProgress,
  type CompareResult,
  policyCounter,
  reloadOffloaded,
  sanitizeHistory,
  sharedCounter,
  type EncodingName,
  type TiktokenCounter,
  type Message,
  type ToolDefinition,
  type TraceStep,
} from "@/lib/context";
import { loadEncoding } from "@/lib/context/tokens/encodings";
import { createApiClient } from "@/lib/client/api";
import type { MessageRecord } from "@/lib/db";
import { emptySnapshot, requestView, stepSummary, type MemorySnapshot } from "@/lib/request";
import { nextRequest, type PositionedMessage } from "@/lib/request/next";
import { followMessages } from "./follow";
import type { CompareInput, ContextNode, LoadedConversation, OffloadedEntry, OpenedBranch, RunInput, RunResult } from "./protocol";

export interface PipelineHostOptions {
  /** How `open` reads a branch's stored history; default `GET /api/branches/[id]/messages` on this origin. */
  getBranchMessages?: (branchId: string) => Promise<MessageRecord[]>;
  /** How `open` reads a branch's persisted memory; default `GET /api/branches/[id]/memory`. */
  getBranchMemory?: (branchId: string) => Promise<MemorySnapshot>;
}

interface HeldConversation {
  title: string;
  /** The loaded messages, tool pairs repaired: what the "before" view shows. */
  messages: Message[];
  /** The stored history with positions (a pasted conversation's are its indices): what requests are built from. */
  records: PositionedMessage[];
  tools?: ToolDefinition[];
  snapshot: MemorySnapshot;
  /** The conversation's own context; every run reads from it, so the state tree shows own vs inherited keys. */
  root: Context;
}

/**
 * Holds one conversation and builds its next request on demand with the one
 * request builder (`nextRequest`), exactly as the server does for the same
 * stored state. Lives in the playground's Web Worker (and in tests); the
 * message objects stay here between runs, so token counts and chain summaries
 * stay cached.
 */
export class PipelineHost {
  private conversation?: HeldConversation;
  private lastRun?: { steps: readonly TraceStep[]; context: Context; counter: TiktokenCounter };
  private revision = 0;
  private currentTurn?: Message;
  /** The counter the loaded messages' counts were last made with (its encoding and media rule). */
  private countedWith?: string;
  private readonly getBranchMessages: (branchId: string) => Promise<MessageRecord[]>;
  private readonly getBranchMemory: (branchId: string) => Promise<MemorySnapshot>;
  private prefetched?: { branchId: string; records: Promise<MessageRecord[]>; memory: Promise<MemorySnapshot> };

  constructor(options: PipelineHostOptions = {}) {
    const client = createApiClient();
    this.getBranchMessages = options.getBranchMessages ?? ((branchId) => client.getMessages(branchId));
    this.getBranchMemory = options.getBranchMemory ?? ((branchId) => client.getMemory(branchId));
  }

  /** Loads an encoding's ranks: nothing to wait for outside Web Workers; in the worker, awaited before anything counts. */
  async prepare(encoding: EncodingName = DEFAULT_ENCODING): Promise<void> {
    await loadEncoding(encoding);
  }

  /** Starts reading a branch's stored history and memory, for `open` to take. */
  prefetch(branchId: string): void {
    if (this.prefetched?.branchId === branchId) return;
    const records = this.getBranchMessages(branchId);
    const memory = this.getBranchMemory(branchId);
    // Reported by the `open` that takes them.
    records.catch(() => undefined);
    memory.catch(() => undefined);
    this.prefetched = { branchId, records, memory };
  }

  /**
   * Reads a branch's stored history and memory (in the worker: fetched and
   * parsed off the page's main thread; prefetched if asked before) and loads
   * them. The encoding's encoder is built while they are on their way.
   */
  async open(branchId: string, title: string, tools?: ToolDefinition[], encoding: EncodingName = DEFAULT_ENCODING): Promise<OpenedBranch> {
    await this.prepare(encoding);
    if (this.prefetched?.branchId !== branchId) this.prefetch(branchId);
    const { records, memory } = this.prefetched!;
    this.prefetched = undefined;
    sharedCounter(encoding);
    return this.loadStored(title, await records, tools, encoding, await memory);
  }

  /** Keeps a branch's stored history and memory. */
  loadStored(
    title: string,
    records: MessageRecord[],
    tools?: ToolDefinition[],
    encoding: EncodingName = DEFAULT_ENCODING,
    snapshot?: MemorySnapshot,
  ): OpenedBranch {
    const positioned = records.map(({ position, message }) => ({ position, message }));
    return { conversation: this.keep(title, positioned, tools, encoding, snapshot), records };
  }

  /** Keeps a conversation that is not stored (pasted), or given whole; positions are indices. */
  load(
    title: string,
    messages: readonly Message[],
    tools?: ToolDefinition[],
    encoding: EncodingName = DEFAULT_ENCODING,
    snapshot?: MemorySnapshot,
  ): LoadedConversation {
    return this.keep(
      title,
      messages.map((message, position) => ({ position, message })),
      tools,
      encoding,
      snapshot,
    );
  }

  private keep(
    title: string,
    records: PositionedMessage[],
    tools: ToolDefinition[] | undefined,
    encoding: EncodingName,
    snapshot?: MemorySnapshot,
  ): LoadedConversation {
    // A call still waiting for its result at the very end is a live agent mid-turn, not damage: keep it (as requests do).
    const { history, repairs } = sanitizeHistory(
      records.map((record) => record.message),
      { allowPendingToolCalls: true },
    );
    const root = new Context("conversation", { state: { title, history: [...history], ...(tools ? { tools } : {}) } });
    this.conversation = { title, messages: [...history], records, tools, root, snapshot: withLoadedSystem(snapshot ?? emptySnapshot("pasted"), records) };
    this.lastRun = undefined;
    const counter = sharedCounter(encoding);
    this.countedWith = counter.key;
    return {
      title,
      format: "openai",
      messages: this.conversation.messages,
      tools,
      tokens: counter.countEach(history),
      warnings: [],
      repairs,
      offloadMarkers: [],
      available: 1,
    };
  }

  get loaded(): boolean {
    return this.conversation !== undefined;
  }

  /** The same user-turn text gives the same message object, so its count stays cached between runs. */
  private turnOf(text: string | undefined): Message | null {
    if (!text) return null;
    if (this.currentTurn?.content !== text) this.currentTurn = { role: "user", content: text };
    return this.currentTurn;
  }

  async run(input: RunInput): Promise<RunResult> {
    const conversation = this.requireConversation();
    const { settings } = input;
    await this.prepare(settings.policy.encoding);
    const started = globalThis.performance.now();
    const request = await nextRequest({
      records: conversation.records,
      snapshot: conversation.snapshot,
      settings,
      tools: conversation.tools ?? [],
      current: this.turnOf(input.userTurn),
      parent: conversation.root,
      taskId: `run ${this.revision + 1}`,
    });
    const counter = policyCounter(settings.policy);
    this.lastRun = { steps: request.trace.steps, context: request.context, counter };
    const history = request.messages;
    const { kept, marks } = followMessages(
      conversation.messages,
      request.assembly.candidate,
      request.trace.steps,
      history,
      conversation.snapshot.coveredUntil > 0 ? coveredBy(conversation) : new Set(),
    );
    const offloaded: OffloadedEntry[] = Object.entries(request.offloaded).map(([handle, content]) => ({
      handle,
      origin: marks.findIndex((list) => list.some((mark) => mark.handle === handle)),
      characters: content.length,
      tokens: counter.countText(content),
    }));
    this.revision += 1;
    // One recount of the loaded messages when the model's counter changed, carried by the result it belongs to.
    const recount = counter.key === this.countedWith ? undefined : counter.countEach(conversation.messages);
    this.countedWith = counter.key;
    const { messages: _messages, steps: _steps, ...view } = requestView(request, settings);
    return {
      revision: this.revision,
      history,
      tokens: counter.countEach(history),
      kept,
      marks,
      steps: request.trace.steps.map(stepSummary),
      request: view,
      trimmed: request.context.state.get("token_budget_trimmed"),
      offloaded,
      totalMs: globalThis.performance.now() - started,
      contexts: [describeContext(conversation.root), describeContext(request.context)],
      ...(recount ? { loadedTokens: recount } : {}),
    };
  }

  /**
   * Replays the loaded conversation (as the "before" view shows it) under raw
   * and the policies (E-RP9). The conversation is taken when it starts: a load
   * meanwhile does not change what it replays.
   */
  async compare(input: CompareInput, options: { signal?: AbortSignal; onProgress?: (progress: CompareProgress) => void } = {}): Promise<CompareResult> {
    const { messages, tools } = this.requireConversation();
    await Promise.all([...new Set(input.policies.map((entry) => entry.policy.encoding))].map((encoding) => this.prepare(encoding)));
    return comparePolicies({
      messages,
      tools,
      policies: input.policies,
      prices: input.prices,
      cache: input.cache,
      cacheTtl: input.cacheTtl,
      signal: options.signal,
      onProgress: options.onProgress,
    });
  }

  /** The history a step received and the one it returned (for the diff view). */
  stepHistories(step: number): { before: Message[]; after: Message[] } {
    const run = this.lastRun?.steps[step];
    if (!run) throw new ContextError(`no step ${step} in the last run`);
    return { before: [...run.historyBefore], after: [...run.historyAfter] };
  }

  /** Each text's tokens, counted with the last run's encoding. */
  countTexts(texts: readonly string[]): number[] {
    const counter = this.lastRun?.counter;
    if (!counter) throw new ContextError("run the pipeline before counting");
    return texts.map((text) => counter.countText(text));
  }

  /** What `reload_offloaded` returns for a handle in the last run. */
  async reload(handle: string): Promise<string> {
    if (!this.lastRun) throw new ContextError("run the pipeline before reloading offloaded content");
    return reloadOffloaded(this.lastRun.context, handle);
  }

  private requireConversation(): HeldConversation {
    if (!this.conversation) throw new ContextError("no conversation loaded: paste or import one first");
    return this.conversation;
  }
}

/**
 * The snapshot with its system messages as the loaded objects. The memory
 * reads them apart (equal, not the same objects), and the views follow
 * messages by identity: a covered system prompt the request sends would
 * otherwise show as not sent, and be counted again.
 */
function withLoadedSystem(snapshot: MemorySnapshot, records: readonly PositionedMessage[]): MemorySnapshot {
  if (snapshot.system.length === 0) return snapshot;
  const loaded = records.filter((record) => record.position < snapshot.coveredUntil && record.message.role === "system").map((record) => record.message);
  const same = loaded.length === snapshot.system.length && loaded.every((message, index) => JSON.stringify(message) === JSON.stringify(snapshot.system[index]));
  return same ? { ...snapshot, system: loaded } : snapshot;
}

/** The loaded messages a persisted summary stands for (system messages stay: they are sent whole). */
function coveredBy(conversation: HeldConversation): Set<Message> {
  const covered = new Set<Message>();
  for (const record of conversation.records) {
    if (record.position < conversation.snapshot.coveredUntil && record.message.role !== "system") covered.add(record.message);
  }
  return covered;
}

/** A context's state keys with one-line summaries, own and inherited. */
export function describeContext(context: Context): ContextNode {
  const merged = context.state.toObject();
  const entries = Object.keys(merged)
    .sort()
    .map((key) => {
      const local = context.state.isLocal(key);
      return { key, local, shadows: local && context.parent?.state.has(key) === true, summary: summarizeValue(merged[key]) };
    });
  return { taskId: context.taskId, parent: context.parent?.taskId, entries };
}

function summarizeValue(value: unknown): string {
  if (Array.isArray(value)) {
    const messages = value.every((item) => typeof item === "object" && item !== null && "role" in item);
    return `${value.length} ${messages ? "messages" : "items"}`;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.every((key) => key.startsWith("off_"))) return `${keys.length} handle${keys.length === 1 ? "" : "s"}`;
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
