/**
 * Named engine errors. Each carries a `Symbol.for` marker so `isInstance`
 * holds across bundles (a Web Worker and the page load separate copies).
 */
import type { PipelineTrace } from "./pipeline";

const contextMarker = Symbol.for("context-lab.error.context");

function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

/** Base class of every engine error. */
export class ContextError extends Error {
  private readonly [contextMarker] = true;
  /** Where the problem is, when known (message index, state key, handle). */
  readonly where?: string;

  constructor(message: string, options?: { cause?: unknown; where?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ContextError";
    this.where = options?.where;
  }

  static isInstance(error: unknown): error is ContextError {
    return hasMarker(error, contextMarker);
  }
}

const processorMarker = Symbol.for("context-lab.error.processor");

/** A processor failed; names the processor and the event it ran on. */
export class ProcessorError extends ContextError {
  private readonly [processorMarker] = true;
  readonly processor: string;
  readonly event: string;
  /** The steps that ran before the failure. */
  trace?: PipelineTrace;

  constructor(processor: string, event: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`processor '${processor}' failed on '${event}': ${reason}`, { cause, where: processor });
    this.name = "ProcessorError";
    this.processor = processor;
    this.event = event;
  }

  static isInstance(error: unknown): error is ProcessorError {
    return hasMarker(error, processorMarker);
  }
}

const checkpointMarker = Symbol.for("context-lab.error.checkpoint");

/** A checkpoint version that does not exist, or a store used wrongly. */
export class CheckpointError extends ContextError {
  private readonly [checkpointMarker] = true;

  constructor(message: string, options?: { cause?: unknown; where?: string }) {
    super(message, options);
    this.name = "CheckpointError";
  }

  static isInstance(error: unknown): error is CheckpointError {
    return hasMarker(error, checkpointMarker);
  }
}

const budgetMarker = Symbol.for("context-lab.error.budget");

/** Even the smallest valid history does not fit the budget: the caller must stop. */
export class BudgetExceededError extends ContextError {
  private readonly [budgetMarker] = true;
  readonly budget: number;
  readonly tokens: number;
  /** Set when the pipeline stopped on it: the steps that ran, the budget processor's included. */
  trace?: PipelineTrace;

  constructor(budget: number, tokens: number, message?: string) {
    super(message ?? `history needs ${tokens} tokens but the budget is ${budget}; no model call should be made`);
    this.name = "BudgetExceededError";
    this.budget = budget;
    this.tokens = tokens;
  }

  static isInstance(error: unknown): error is BudgetExceededError {
    return hasMarker(error, budgetMarker);
  }
}

const cancelledMarker = Symbol.for("context-lab.error.replay-cancelled");

/** A replay or comparison was cancelled through its `AbortSignal` (RP2); `cause` is the signal's reason. */
export class ReplayCancelledError extends ContextError {
  private readonly [cancelledMarker] = true;
  /** Calls replayed before the cancellation was seen. */
  readonly done: number;

  constructor(done: number, reason?: unknown) {
    super(`replay cancelled after ${done} call${done === 1 ? "" : "s"}`, { cause: reason, where: `call ${done}` });
    this.name = "ReplayCancelledError";
    this.done = done;
  }

  static isInstance(error: unknown): error is ReplayCancelledError {
    return hasMarker(error, cancelledMarker);
  }
}
