import { deepCopy } from "./copy";
import { ContextError, CheckpointError } from "./errors";
import { deepFreeze } from "./freeze";
import type { TokenUsage } from "./usage";

/** A versioned, deep-copied snapshot of a context's state (E-K1, E-K2). */
export interface Checkpoint {
  readonly taskId: string;
  readonly version: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly tokenUsage: Readonly<TokenUsage>;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO 8601. */
  readonly createdAt: string;
}

export interface CheckpointStoreOptions {
  /** Clock, injected for reproducible tests. */
  now?: () => Date;
}

/**
 * The checkpoints of one task: versions start at 1 and only grow (E-K1); values
 * are deep copies, frozen, so later state changes never reach them (E-K2).
 * @example const store = new CheckpointStore("task-1"); store.save(ctx.state.toObject(), ctx.tokenUsage)
 */
export class CheckpointStore {
  readonly taskId: string;
  private readonly checkpoints: Checkpoint[] = [];
  private readonly now: () => Date;

  constructor(taskId: string, options: CheckpointStoreOptions = {}) {
    this.taskId = taskId;
    this.now = options.now ?? (() => new Date());
  }

  /** Saves deep copies as the next version; throws `CheckpointError`, saving nothing, when a value cannot be copied (E-2). */
  save(values: Readonly<Record<string, unknown>>, tokenUsage: Readonly<TokenUsage>, metadata: Readonly<Record<string, unknown>> = {}): Checkpoint {
    const latest = this.checkpoints.at(-1);
    const version = (latest?.version ?? 0) + 1;
    const checkpoint: Checkpoint = deepFreeze({
      taskId: this.taskId,
      version,
      values: this.copy(values, "state", version),
      tokenUsage: { ...tokenUsage },
      metadata: this.copy(metadata, "metadata", version),
      createdAt: this.now().toISOString(),
    });
    this.checkpoints.push(checkpoint);
    return checkpoint;
  }

  private copy<T>(value: T, where: string, version: number): T {
    try {
      return deepCopy(value, where);
    } catch (error) {
      if (!ContextError.isInstance(error)) throw error;
      throw new CheckpointError(`task '${this.taskId}': checkpoint version ${version} not saved: ${error.message}`, { cause: error, where: error.where });
    }
  }

  /** The checkpoint of a version; throws `CheckpointError` for one that does not exist. */
  get(version: number): Checkpoint {
    const checkpoint = this.checkpoints.find((candidate) => candidate.version === version);
    if (!checkpoint) {
      const known = this.checkpoints.length === 0 ? "none saved yet" : `1..${this.checkpoints.length}`;
      throw new CheckpointError(`task '${this.taskId}' has no checkpoint version ${version} (${known})`, { where: `version ${version}` });
    }
    return checkpoint;
  }

  latest(): Checkpoint | undefined {
    return this.checkpoints.at(-1);
  }

  list(): Checkpoint[] {
    return [...this.checkpoints];
  }

  get size(): number {
    return this.checkpoints.length;
  }

  /** Deep copies of a version's values, ready to seed a new context. */
  restore(version: number): { values: Record<string, unknown>; tokenUsage: TokenUsage } {
    const checkpoint = this.get(version);
    return { values: deepCopy(checkpoint.values) as Record<string, unknown>, tokenUsage: { ...checkpoint.tokenUsage } };
  }
}
