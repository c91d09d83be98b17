import { CheckpointStore, type Checkpoint } from "./checkpoints";
import { makeConfig, type ContextConfig } from "./config";
import { ContextError } from "./errors";
import { deepCopy } from "./copy";
import { ContextState } from "./state";
import { addUsage, subtractUsage, toUsage, ZERO_USAGE, type TokenUsage, type UsageInput } from "./usage";

export interface ContextOptions {
  config?: ContextConfig;
  parent?: Context;
  state?: ContextState | Readonly<Record<string, unknown>>;
  /** Clock for checkpoints' `createdAt`. */
  now?: () => Date;
}

/**
 * A task's context: hierarchical state, config, token usage and checkpoints.
 * Forks read their parent's state and write only their own (E-F1).
 * @example const child = ctx.fork("subtask"); child.state.set("history", []); ctx.merge(child)
 */
export class Context {
  readonly taskId: string;
  readonly config: ContextConfig;
  readonly parent?: Context;
  readonly state: ContextState;
  readonly checkpoints: CheckpointStore;
  private readonly childContexts: Context[] = [];
  private usage: TokenUsage = { ...ZERO_USAGE };
  private usageAtFork: TokenUsage = { ...ZERO_USAGE };
  private readonly now: () => Date;

  constructor(taskId: string, options: ContextOptions = {}) {
    if (!taskId) throw new ContextError("a context needs a non-empty taskId");
    this.taskId = taskId;
    this.parent = options.parent;
    this.config = options.config ?? options.parent?.config ?? makeConfig();
    this.now = options.now ?? options.parent?.now ?? (() => new Date());
    this.state = options.state instanceof ContextState ? options.state : new ContextState(options.state ?? {}, options.parent?.state);
    this.checkpoints = new CheckpointStore(taskId, { now: this.now });
  }

  get children(): readonly Context[] {
    return [...this.childContexts];
  }

  get tokenUsage(): Readonly<TokenUsage> {
    return { ...this.usage };
  }

  /**
   * Adds a model call's usage: the engine's fields or a provider's usage
   * object as sent (E-U1); anything else throws `ContextError`.
   * @example ctx.addTokens(completion.usage)
   */
  addTokens(usage: UsageInput): void {
    this.usage = addUsage(this.usage, toUsage(usage));
  }

  /** A child that inherits reads, the config and a token snapshot (E-F1). */
  fork(taskId: string): Context {
    const child = new Context(taskId, { parent: this, config: this.config, now: this.now });
    child.usage = { ...this.usage };
    child.usageAtFork = { ...this.usage };
    this.childContexts.push(child);
    return child;
  }

  /** Folds a direct child's local state and its net token delta since the fork (or its last merge) into this context (E-F2). */
  merge(child: Context): void {
    if (child.parent !== this || !this.childContexts.includes(child)) {
      throw new ContextError(`cannot merge '${child.taskId}' into '${this.taskId}': it is not a direct child`, { where: child.taskId });
    }
    // Every value is copied before any is written: a value that cannot be copied leaves this context as it was.
    const copies = Object.entries(child.state.localObject()).map(([key, value]) => [key, deepCopy(value, `state key '${key}' of '${child.taskId}'`)] as const);
    for (const [key, value] of copies) this.state.set(key, value);
    for (const key of child.state.deletedKeys()) this.state.delete(key);
    this.usage = addUsage(this.usage, subtractUsage(child.usage, child.usageAtFork));
    // A child merged again (it went on working) brings only what it used since this merge.
    child.usageAtFork = { ...child.usage };
  }

  /** Saves a deep copy of the merged state as the next checkpoint version (E-K1, E-K2). */
  snapshot(metadata: Readonly<Record<string, unknown>> = {}): Checkpoint {
    return this.checkpoints.save(this.state.toObject(), this.usage, metadata);
  }

  /** A new root context seeded with a checkpoint's values and usage. */
  static restore(checkpoint: Checkpoint, config?: ContextConfig): Context {
    const context = new Context(checkpoint.taskId, { config, state: deepCopy(checkpoint.values) as Record<string, unknown> });
    context.usage = { ...checkpoint.tokenUsage };
    return context;
  }
}
