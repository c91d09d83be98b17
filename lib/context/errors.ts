/** Named engine errors: `X.isInstance(error)` holds across bundles (MarkedError). */
import { MarkedError } from "./marked-error";
import type { PipelineTrace } from "./pipeline";

/** Base class of every engine error. */
export class ContextError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.context");
  /** Where the problem is, when known (message index, state key, handle). */
  readonly where?: string;

  constructor(message: string, options?: { cause?: unknown; where?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ContextError";
    this.where = options?.where;
  }
}

/** A processor failed; names the processor and the event it ran on. */
export class ProcessorError extends ContextError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.processor");
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
}

/** A checkpoint version that does not exist, or a store used wrongly. */
export class CheckpointError extends ContextError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.checkpoint");

  constructor(message: string, options?: { cause?: unknown; where?: string }) {
    super(message, options);
    this.name = "CheckpointError";
  }
}

/** Even the smallest valid history does not fit the budget: the caller must stop. */
export class BudgetExceededError extends ContextError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.budget");
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
}

/** A replay or comparison was cancelled through its `AbortSignal` (E-RP2); `cause` is the signal's reason. */
export class ReplayCancelledError extends ContextError {
  static override readonly marker: symbol = Symbol.for("context-lab.error.replay-cancelled");
  /** Calls replayed before the cancellation was seen. */
  readonly done: number;

  constructor(done: number, reason?: unknown) {
    super(`replay cancelled after ${done} call${done === 1 ? "" : "s"}`, { cause: reason, where: `call ${done}` });
    this.name = "ReplayCancelledError";
    this.done = done;
  }
}
