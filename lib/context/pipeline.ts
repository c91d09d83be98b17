import type { Context } from "./context";
import { ContextError } from "./errors";
import type { IndexRanges } from "./history/ranges";
import { indexOf } from "./history/index-of";
import type { Message } from "./messages";
import { historyOf, runProcessor, traceStep } from "./pipeline-run";
import { resolveCounter } from "./tokens/resolve";
import { runWindowFirst, windowAfter } from "./window-first";

/** The events processors register on (E-PL1). */
export type ContextEvent = "pre_llm_call" | "post_tool_call";

export const CONTEXT_EVENTS: readonly ContextEvent[] = Object.freeze(["pre_llm_call", "post_tool_call"]);

/** What a processor did to particular messages, for the inspector's per-message marks. */
export type MessageEffectKind = "offloaded" | "compressed" | "dropped" | "summarised" | "truncated" | "masked" | "cleared";

export interface MessageEffect {
  kind: MessageEffectKind;
  /** Indices in the history the processor received, as ranges (E-PL2). */
  before: IndexRanges;
  /** Indices in the history it returned, as ranges (none when the messages are gone). */
  after: IndexRanges;
  /** The offload handle, when there is one. */
  handle?: string;
  note?: string;
}

/** What `process` may return: the effects it had. */
export interface ProcessorResult {
  effects?: MessageEffect[];
}

/** What a run tells a processor about the ones after it (E-PL5). */
export interface ProcessorRun {
  /**
   * Set for a processor that keeps rounds whole (`preservesRounds`) when a
   * later processor keeps only this many newest rounds and every processor in
   * between keeps rounds whole too: older rounds will be dropped, so it may
   * leave them as they are.
   */
  roundsKeptLater?: number;
  /**
   * Set for a processor that runs on a later window's output instead of its
   * input (`runsOnWindow`, E-PL7): how many messages, none of them system
   * messages, the window dropped. What it decides from the whole history's
   * size counts them in.
   */
  droppedMessages?: number;
}

/** Options every processor takes. */
export interface ContextProcessorOptions {
  name?: string;
}

/**
 * A step of the pipeline: reads and writes `ctx.state` on one event.
 * Processors replace `history` with new arrays and never mutate messages.
 */
export abstract class ContextProcessor<Payload extends object = Record<string, unknown>> {
  readonly event: ContextEvent;
  readonly name: string;
  /** True for a processor that never changes which messages make up which round (E-R1), only their contents (E-PL5). */
  readonly preservesRounds: boolean = false;
  /**
   * True for a processor that keeps rounds whole and, told `roundsKeptLater`,
   * changes nothing outside the newest rounds and no system message: run on
   * the window's output instead, it makes the same changes. The pipeline then
   * runs the window first, so the run's work follows what the window keeps (E-PL7).
   */
  readonly runsOnWindow: boolean = false;

  constructor(event: ContextEvent, options: ContextProcessorOptions = {}) {
    this.event = event;
    this.name = options.name ?? this.constructor.name;
  }

  /** For a processor that keeps only the newest rounds: how many it keeps in this context (E-PL5). */
  roundsKept(_ctx: Context): number | undefined {
    return undefined;
  }

  abstract process(ctx: Context, payload: Payload, run: ProcessorRun): Promise<ProcessorResult | void> | ProcessorResult | void;
}

/** One processor's run, as the inspector draws it (TR1). */
export interface TraceStep {
  processor: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  ms: number;
  /** The history the processor received and the one it left (the same array when untouched). */
  historyBefore: readonly Message[];
  historyAfter: readonly Message[];
  /** State keys it wrote or deleted. */
  stateKeys: string[];
  effects: MessageEffect[];
}

/** The result of `fire`: one step per processor that ran. */
export interface PipelineTrace {
  event: ContextEvent;
  steps: TraceStep[];
}

/** Events a pipeline emits while it runs. */
export interface PipelineEvents {
  "processor-start": { event: ContextEvent; processor: string };
  "processor-end": { event: ContextEvent; step: TraceStep };
}

type Listener<K extends keyof PipelineEvents> = (detail: PipelineEvents[K]) => void;

export interface ProcessorPipelineOptions {
  /** Milliseconds clock; injected so traces are reproducible in tests. */
  now?: () => number;
}

/**
 * Runs the processors registered on an event, in registration order, as a
 * left fold over `ctx.state`, and records one trace step per processor.
 * @example await new ProcessorPipeline().register(new RoundWindowProcessor()).fire("pre_llm_call", ctx)
 */
export class ProcessorPipeline {
  private readonly processors: ContextProcessor<object>[] = [];
  private readonly listeners = new Map<keyof PipelineEvents, Set<Listener<keyof PipelineEvents>>>();
  private readonly now: () => number;

  constructor(options: ProcessorPipelineOptions = {}) {
    this.now = options.now ?? (() => globalThis.performance.now());
  }

  register(processor: ContextProcessor<object>): this {
    if (this.processors.includes(processor)) throw new ContextError(`processor '${processor.name}' is already registered`);
    this.processors.push(processor);
    return this;
  }

  unregister(processor: ContextProcessor<object>): this {
    const index = this.processors.indexOf(processor);
    if (index >= 0) this.processors.splice(index, 1);
    return this;
  }

  listProcessors(event?: ContextEvent): ContextProcessor<object>[] {
    return this.processors.filter((processor) => event === undefined || processor.event === event);
  }

  hasProcessors(event: ContextEvent): boolean {
    return this.processors.some((processor) => processor.event === event);
  }

  clear(): void {
    this.processors.length = 0;
  }

  on<K extends keyof PipelineEvents>(name: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as Listener<keyof PipelineEvents>);
    return () => set.delete(listener as Listener<keyof PipelineEvents>);
  }

  /**
   * Runs every processor registered on `event`. A failing processor stops the
   * run with a `ProcessorError` that carries the trace so far.
   */
  async fire(event: ContextEvent, ctx: Context, payload: object = {}): Promise<PipelineTrace> {
    const counter = resolveCounter(ctx.config);
    // E-PL2: the step totals come from the history indexes' running totals, never a recount of whole histories.
    const tokensOf = (history: readonly Message[]) => indexOf(history).tokens(counter);
    const trace: PipelineTrace = { event, steps: [] };
    const processors = this.listProcessors(event);
    const record = (step: TraceStep) => {
      this.emit("processor-start", { event, processor: step.processor });
      trace.steps.push(step);
      this.emit("processor-end", { event, step });
    };
    for (let position = 0; position < processors.length; position += 1) {
      const processor = processors[position];
      // E-PL7: processors that can run on the window's output run after it, and the trace shows them before it.
      const window = windowAfter(processors, position, ctx);
      if (window !== undefined) {
        await runWindowFirst(processors.slice(position, window + 1), { ctx, payload, now: this.now, trace, counter, record });
        position = window;
        continue;
      }
      this.emit("processor-start", { event, processor: processor.name });
      const historyBefore = historyOf(ctx);
      const run = processor.preservesRounds ? { roundsKeptLater: roundsKeptAfter(processors, position, ctx) } : {};
      const outcome = await runProcessor(processor, ctx, payload, run, this.now, trace);
      const historyAfter = historyOf(ctx);
      const counts = {
        messagesBefore: historyBefore.length,
        messagesAfter: historyAfter.length,
        tokensBefore: tokensOf(historyBefore),
        tokensAfter: tokensOf(historyAfter),
      };
      const step = traceStep(processor.name, counts, historyBefore, historyAfter, outcome);
      trace.steps.push(step);
      this.emit("processor-end", { event, step });
    }
    return trace;
  }

  private emit<K extends keyof PipelineEvents>(name: K, detail: PipelineEvents[K]): void {
    for (const listener of this.listeners.get(name) ?? []) (listener as Listener<K>)(detail);
  }
}

/** PL5: the rounds a later processor keeps, when every processor up to it keeps rounds whole. */
function roundsKeptAfter(processors: readonly ContextProcessor<object>[], position: number, ctx: Context): number | undefined {
  for (const later of processors.slice(position + 1)) {
    const kept = later.roundsKept(ctx);
    if (kept !== undefined) return kept;
    if (!later.preservesRounds) return undefined;
  }
  return undefined;
}
