// One processor's run inside `ProcessorPipeline.fire`, and the trace step it makes:
// shared by the plain fold and by a window run first (E-PL7).
import type { Context } from "./context";
import { BudgetExceededError, ProcessorError } from "./errors";
import type { Message } from "./messages";
import type { ContextProcessor, MessageEffect, PipelineTrace, ProcessorRun, TraceStep } from "./pipeline";
import { STATE_KEYS } from "./state";

export const EMPTY_HISTORY: readonly Message[] = Object.freeze([]);

/** What one processor did: its effects, the state keys it wrote and how long it took. */
export interface ProcessorOutcome {
  effects: MessageEffect[];
  stateKeys: string[];
  ms: number;
}

/** Runs one processor on `ctx`; a failure stops the run with the trace so far (E-PL3). */
export async function runProcessor(
  processor: ContextProcessor<object>,
  ctx: Context,
  payload: object,
  run: ProcessorRun,
  now: () => number,
  trace: PipelineTrace,
): Promise<ProcessorOutcome> {
  const keysBefore = snapshotLocal(ctx);
  const started = now();
  let effects: MessageEffect[];
  try {
    effects = (await processor.process(ctx, payload, run))?.effects ?? [];
  } catch (error) {
    // E-B3: the budget stop is a result the caller acts on, not a processor failure: it is thrown as itself.
    if (BudgetExceededError.isInstance(error)) {
      error.trace = trace;
      throw error;
    }
    const failure = new ProcessorError(processor.name, trace.event, error);
    failure.trace = trace;
    throw failure;
  }
  const ms = now() - started;
  return { effects, stateKeys: changedKeys(keysBefore, ctx), ms };
}

export function historyOf(ctx: Context): readonly Message[] {
  return ctx.state.getOr(STATE_KEYS.history, EMPTY_HISTORY);
}

/** A history a trace step holds, or how to make it when it is first read (E-PL7). */
export type StepHistory = readonly Message[] | (() => readonly Message[]);

/** A trace step; a history given as a function is made on first read, once (E-PL7). */
export function traceStep(
  processor: string,
  counts: { messagesBefore: number; messagesAfter: number; tokensBefore: number; tokensAfter: number },
  before: StepHistory,
  after: StepHistory,
  outcome: ProcessorOutcome,
): TraceStep {
  const step = {
    processor,
    ...counts,
    ms: outcome.ms,
    historyBefore: EMPTY_HISTORY,
    historyAfter: EMPTY_HISTORY,
    stateKeys: outcome.stateKeys,
    effects: outcome.effects,
  };
  setHistory(step, "historyBefore", before);
  setHistory(step, "historyAfter", after);
  return step;
}

function setHistory(step: TraceStep, key: "historyBefore" | "historyAfter", history: StepHistory): void {
  if (typeof history !== "function") {
    step[key] = history;
    return;
  }
  // Read once, it becomes a plain property, as if it had been one all along.
  const settle = (value: readonly Message[]) => Object.defineProperty(step, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(step, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = history();
      settle(value);
      return value;
    },
    set: settle,
  });
}

function snapshotLocal(ctx: Context): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const key of ctx.state.localKeys()) values.set(key, ctx.state.isLocal(key) ? ctx.state.get(key) : undefined);
  return values;
}

function changedKeys(before: Map<string, unknown>, ctx: Context): string[] {
  const changed: string[] = [];
  for (const key of ctx.state.localKeys()) {
    const now = ctx.state.isLocal(key) ? ctx.state.get(key) : undefined;
    if (!before.has(key) || before.get(key) !== now) changed.push(key);
  }
  for (const key of before.keys()) if (!ctx.state.localKeys().includes(key)) changed.push(key);
  return changed;
}
