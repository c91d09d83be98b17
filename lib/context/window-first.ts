// E-PL7: a window runs before the processors in front of it that can run on its
// output, so an appended turn costs what the window keeps, not the whole history.
// The trace is the one the registration order gives: each step's history is the
// whole one, made from the input and the windowed one when it is first read.
import type { Context } from "./context";
import { ContextError, ProcessorError } from "./errors";
import { applyEdits } from "./history/edit";
import { indexOf } from "./history/index-of";
import type { IndexRanges } from "./history/ranges";
import type { Message } from "./messages";
import type { ContextProcessor, MessageEffect, PipelineTrace, TraceStep } from "./pipeline";
import { historyOf, runProcessor, traceStep, type StepHistory } from "./pipeline-run";
import { STATE_KEYS } from "./state";
import type { TiktokenCounter } from "./tokens/counter";

/**
 * The position of the window (a processor that keeps only the newest rounds)
 * after `position`, when the processor there and every one up to the window
 * can run on the window's output (`runsOnWindow`).
 */
export function windowAfter(processors: readonly ContextProcessor<object>[], position: number, ctx: Context): number | undefined {
  if (!processors[position].runsOnWindow) return undefined;
  for (let later = position + 1; later < processors.length; later += 1) {
    if (processors[later].roundsKept(ctx) !== undefined) return later;
    if (!processors[later].runsOnWindow) return undefined;
  }
  return undefined;
}

export interface WindowFirstRun {
  ctx: Context;
  payload: object;
  now: () => number;
  trace: PipelineTrace;
  counter: TiktokenCounter;
  /** Adds a step to the trace, in registration order. */
  record: (step: TraceStep) => void;
}

/**
 * Runs `group` (processors that run on a window's output, then the window):
 * the window first, on the input; then the others, in order, on what it
 * keeps. The state and the final history are those of the run in
 * registration order with look-ahead (E-PL5), and so is the trace.
 */
export async function runWindowFirst(group: readonly ContextProcessor<object>[], run: WindowFirstRun): Promise<void> {
  const { ctx, payload, now, trace, counter, record } = run;
  const window = group[group.length - 1];
  const input = historyOf(ctx);
  const index = indexOf(input);
  const cut = index.startOfLastRounds(window.roundsKept(ctx) ?? 0);
  const systems = index.systemPositionsBefore(cut);
  const windowed = await runProcessor(window, ctx, payload, {}, now, trace);
  const kept = historyOf(ctx);
  // E-W1 is what makes the order free: the window keeps the system messages before its cut and every message after it.
  if (kept.length !== systems.length + input.length - cut || kept.at(-1) !== input.at(-1))
    throw contractBroken(window, trace, "keeps only the newest rounds but did not return the system messages before them and those rounds");
  const whole = wholeHistories(input, kept, cut, systems, counter);
  let current = kept;
  let currentWhole: StepHistory = input;
  for (const processor of group.slice(0, -1)) {
    let outcome: Awaited<ReturnType<typeof runProcessor>>;
    try {
      outcome = await runProcessor(processor, ctx, payload, { droppedMessages: whole.dropped }, now, trace);
    } catch (error) {
      // The state holds what the failing processor received, as in a run in registration order.
      ctx.state.set(STATE_KEYS.history, read(currentWhole));
      throw error;
    }
    const next = historyOf(ctx);
    if (next.length < systems.length || systems.some((_, ordinal) => next[ordinal] !== kept[ordinal]))
      throw contractBroken(processor, trace, "runs on a window's output but changed a system message before the newest rounds");
    const nextWhole: StepHistory = next === current ? currentWhole : whole.of(next);
    const counts = {
      messagesBefore: current.length + whole.dropped,
      messagesAfter: next.length + whole.dropped,
      tokensBefore: whole.tokens(current),
      tokensAfter: whole.tokens(next),
    };
    const effects = outcome.effects.map((effect): MessageEffect => ({ ...effect, before: whole.ranges(effect.before), after: whole.ranges(effect.after) }));
    record(traceStep(processor.name, counts, currentWhole, nextWhole, { ...outcome, effects }));
    current = next;
    currentWhole = nextWhole;
  }
  const counts = {
    messagesBefore: current.length + whole.dropped,
    messagesAfter: current.length,
    tokensBefore: whole.tokens(current),
    tokensAfter: tokens(current, counter),
  };
  record(traceStep(window.name, counts, currentWhole, whole.dropped === 0 ? currentWhole : current, windowed));
}

/**
 * How a history the window kept stands in the whole one: the input's
 * messages before the cut, then the kept history's past the system messages
 * it carried over. `of` makes the whole history when first read, once.
 */
function wholeHistories(input: readonly Message[], kept: readonly Message[], cut: number, systems: readonly number[], counter: TiktokenCounter) {
  const dropped = cut - systems.length;
  const index = indexOf(input);
  let systemTokens = 0;
  for (const position of systems) systemTokens += index.tokensAt(counter, position);
  const droppedTokens = dropped === 0 ? 0 : index.tokensBefore(counter, cut) - systemTokens;
  const position = (at: number) => (at < systems.length ? systems[at] : at + dropped);
  return {
    dropped,
    of: (history: readonly Message[]): StepHistory =>
      dropped === 0 ? history : once(() => applyEdits(input, [{ from: cut, to: input.length, messages: history.slice(systems.length) }]).history),
    tokens: (history: readonly Message[]) => tokens(history, counter) + (history.length === 0 ? 0 : droppedTokens),
    ranges: (ranges: IndexRanges): IndexRanges => {
      if (dropped === 0 || kept.length === 0) return ranges;
      const mapped: [number, number][] = [];
      for (const [start, end] of ranges)
        for (let at = start; at < end; at = at < systems.length ? at + 1 : end) {
          const from = position(at);
          const to = at < systems.length ? from + 1 : end + dropped;
          const last = mapped.at(-1);
          if (last && last[1] === from) last[1] = to;
          else mapped.push([from, to]);
        }
      return mapped;
    },
  };
}

function tokens(history: readonly Message[], counter: TiktokenCounter): number {
  return indexOf(history).tokens(counter);
}

function once(make: () => readonly Message[]): () => readonly Message[] {
  let made: readonly Message[] | undefined;
  return () => (made ??= make());
}

function read(history: StepHistory): readonly Message[] {
  return typeof history === "function" ? history() : history;
}

function contractBroken(processor: ContextProcessor<object>, trace: PipelineTrace, what: string): ProcessorError {
  const error = new ProcessorError(processor.name, trace.event, new ContextError(`processor '${processor.name}' ${what} (E-PL7)`, { where: processor.name }));
  error.trace = trace;
  return error;
}
