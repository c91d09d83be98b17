import {
  buildPipeline,
  computeHistoryBudget,
  Context,
  ContextError,
  DEFAULT_ENCODING,
  processHistory,
  reloadOffloaded,
  sanitizeHistory,
  sharedCounter,
  type EncodingName,
  type Message,
  type ProcessorKind,
  type ToolDefinition,
  type TraceStep,
} from "@/lib/context";
import { loadEncoding } from "@/lib/context/tokens/encodings";
import { createApiClient } from "@/lib/client/api";
import type { MessageRecord } from "@/lib/db";
import type { ContextNode, LoadedConversation, MessageMark, OffloadedEntry, OpenedBranch, RunResult, StepSummary } from "./protocol";
import { settingsEncoding, toEngine, type PlaygroundSettings } from "./settings";

// Only `pre_llm_call` processors shape the history a model is sent.
const PRE_CALL: ReadonlySet<ProcessorKind> = new Set(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]);

/**
 * Holds one conversation and re-runs the pipeline over it on demand. Lives in
 * the playground's Web Worker (and in tests); the message objects stay here
 * between runs, so per-message token counts and chain summaries stay cached.
 */
export interface PipelineHostOptions {
  /** How `open` reads a branch's stored history; default `GET /api/branches/[id]/messages` on this origin. */
  getBranchMessages?: (branchId: string) => Promise<MessageRecord[]>;
}

export class PipelineHost {
  private conversation?: { title: string; messages: Message[]; tools?: ToolDefinition[]; root: Context };
  private lastRun?: { steps: TraceStep[]; context: Context };
  private revision = 0;
  private readonly getBranchMessages: (branchId: string) => Promise<MessageRecord[]>;
  private prefetched?: { branchId: string; records: Promise<MessageRecord[]> };

  constructor(options: PipelineHostOptions = {}) {
    this.getBranchMessages = options.getBranchMessages ?? ((branchId) => createApiClient().getMessages(branchId));
  }

  /**
   * Loads an encoding's ranks. Nothing to wait for outside Web Workers (the
   * engine loads every encoding there); in the worker, awaited before
   * anything counts.
   */
  async prepare(encoding: EncodingName = DEFAULT_ENCODING): Promise<void> {
    await loadEncoding(encoding);
  }

  /** Starts reading a branch's stored history, for `open` to take. */
  prefetch(branchId: string): void {
    if (this.prefetched?.branchId === branchId) return;
    const records = this.getBranchMessages(branchId);
    // Reported by the `open` that takes it.
    records.catch(() => undefined);
    this.prefetched = { branchId, records };
  }

  /**
   * Reads a branch's stored history (in the worker: fetched and parsed off the
   * page's main thread; prefetched if asked before) and loads it as `load`
   * does. The encoding's encoder is built while the history is on its way.
   */
  async open(branchId: string, title: string, tools?: ToolDefinition[], encoding: EncodingName = DEFAULT_ENCODING): Promise<OpenedBranch> {
    await this.prepare(encoding);
    const prefetched = this.prefetched?.branchId === branchId ? this.prefetched.records : undefined;
    this.prefetched = undefined;
    const reading = prefetched ?? this.getBranchMessages(branchId);
    reading.catch(() => undefined);
    sharedCounter(encoding);
    return this.loadStored(title, await reading, tools, encoding);
  }

  /** Keeps a branch's stored history (`GET /api/branches/[id]/messages`), as `load` does. */
  loadStored(title: string, records: MessageRecord[], tools?: ToolDefinition[], encoding: EncodingName = DEFAULT_ENCODING): OpenedBranch {
    return { conversation: this.load(title, records.map((record) => record.message), tools, encoding), records };
  }

  /** Keeps an already-parsed conversation (from the database, say); `encoding` is what the returned token counts use. */
  load(title: string, messages: readonly Message[], tools?: ToolDefinition[], encoding: EncodingName = DEFAULT_ENCODING): LoadedConversation {
    // A call still waiting for its result at the very end is a live agent mid-turn, not damage: keep it.
    const { history, repairs } = sanitizeHistory(messages, { allowPendingToolCalls: true });
    // The conversation's own context; every run forks from it, so the state tree shows own vs inherited keys.
    const root = new Context("conversation", { state: { title, history: [...history], ...(tools ? { tools } : {}) } });
    this.conversation = { title, messages: [...history], tools, root };
    this.lastRun = undefined;
    const counter = sharedCounter(encoding);
    return { title, format: "openai", messages: this.conversation.messages, tools, tokens: counter.countEach(history), warnings: [], repairs, offloadMarkers: [], available: 1 };
  }

  get loaded(): boolean {
    return this.conversation !== undefined;
  }

  async run(settings: PlaygroundSettings): Promise<RunResult> {
    const conversation = this.requireConversation();
    await this.prepare(settingsEncoding(settings));
    const started = globalThis.performance.now();
    const { config, dependencies } = toEngine(settings);
    const spec = settings.processors.filter((entry) => PRE_CALL.has(entry.kind));
    const pipeline = buildPipeline(spec, config, dependencies);
    const result = await processHistory(conversation.messages, { config, pipeline, tools: conversation.tools, parent: conversation.root, taskId: `run ${this.revision + 1}` });
    this.lastRun = { steps: result.trace.steps, context: result.context };
    const counter = sharedCounter(settingsEncoding(settings));
    const history = [...result.history];
    const tokens = counter.countEach(history);
    const { kept, marks } = followMessages(conversation.messages, result.trace.steps, history);
    const system = history.filter((message) => message.role === "system");
    const window = computeHistoryBudget({ contextWindow: settings.contextWindow, maxOutputTokens: settings.maxOutputTokens, system, tools: conversation.tools, counter });
    const used = counter.countMessages(history) - window.system;
    const offloaded: OffloadedEntry[] = Object.entries(result.offloaded).map(([handle, content]) => ({
      handle,
      origin: marks.findIndex((list) => list.some((mark) => mark.handle === handle)),
      characters: content.length,
      tokens: counter.countText(content),
    }));
    this.revision += 1;
    return {
      revision: this.revision,
      history,
      tokens,
      kept,
      marks,
      steps: result.trace.steps.map(summarizeStep),
      budget: { ...window, used },
      offloaded,
      trimmed: result.trimmed,
      exceeded: result.exceeded,
      totalMs: globalThis.performance.now() - started,
      contexts: [describeContext(conversation.root), describeContext(result.context)],
    };
  }

  /** The history a step received and the one it returned (for the diff view). */
  stepHistories(step: number): { before: Message[]; after: Message[] } {
    const run = this.lastRun?.steps[step];
    if (!run) throw new ContextError(`no step ${step} in the last run`);
    return { before: [...run.historyBefore], after: [...run.historyAfter] };
  }

  /** What `reload_offloaded` returns for a handle in the last run. */
  async reload(handle: string): Promise<string> {
    if (!this.lastRun) throw new ContextError("run the pipeline before reloading offloaded content");
    return reloadOffloaded(this.lastRun.context, handle);
  }

  private requireConversation() {
    if (!this.conversation) throw new ContextError("no conversation loaded: paste or import one first");
    return this.conversation;
  }
}

function summarizeStep(step: TraceStep): StepSummary {
  const { historyBefore: _before, historyAfter: _after, ...summary } = step;
  return summary;
}

/**
 * Follows every loaded message through the steps: where it ends up in the
 * final history (or -1) and what each processor did to it. Unchanged messages
 * keep their identity from step to step; replaced ones are found through the
 * step's effects.
 */
export function followMessages(messages: readonly Message[], steps: readonly TraceStep[], final: readonly Message[]): { kept: number[]; marks: MessageMark[][] } {
  const marks: MessageMark[][] = messages.map(() => []);
  let origins = messages.map((_, index) => index);
  for (const step of steps) {
    if (step.historyBefore === step.historyAfter && step.effects.length === 0) continue;
    const positions = new Map<Message, number>();
    step.historyBefore.forEach((message, index) => positions.set(message, index));
    const next = step.historyAfter.map((message) => {
      const before = positions.get(message);
      return before === undefined ? -1 : origins[before];
    });
    for (const effect of step.effects) {
      for (const index of effect.before) {
        const origin = origins[index];
        if (origin !== undefined && origin >= 0) marks[origin].push({ processor: step.processor, kind: effect.kind, handle: effect.handle });
      }
      // A one-to-one replacement (an offloaded message) still stands for its original.
      if (effect.before.length === 1 && effect.after.length === 1) next[effect.after[0]] = origins[effect.before[0]];
    }
    origins = next;
  }
  const kept = messages.map(() => -1);
  origins.forEach((origin, index) => {
    if (origin >= 0 && index < final.length) kept[origin] = index;
  });
  return { kept, marks };
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
