import { deepFreeze } from "./freeze";
import type { Message } from "./messages";

/** The state keys the engine reads and writes (ENGINE.md). */
export const STATE_KEYS = Object.freeze({
  history: "history",
  offloadedMessages: "offloaded_messages",
  offloadedResults: "offloaded_results",
  needsSummary: "needs_summary",
  summaryCandidates: "summary_candidates",
  tokenBudgetTrimmed: "token_budget_trimmed",
  tokenBudgetExceeded: "token_budget_exceeded",
} as const);

/** What the budget processor removed. */
export interface TokenBudgetTrimmed {
  messages: number;
  tokensSaved: number;
}

/** The deterministic over-budget result: even the smallest valid history is over. */
export interface TokenBudgetExceeded {
  budget: number;
  tokens: number;
}

/** Types of the well-known keys, for typed reads. */
export interface KnownState {
  history: readonly Message[];
  offloaded_messages: Readonly<Record<string, string>>;
  offloaded_results: Readonly<Record<string, string>>;
  needs_summary: boolean;
  summary_candidates: readonly Message[];
  token_budget_trimmed: TokenBudgetTrimmed;
  token_budget_exceeded: TokenBudgetExceeded;
}

type ValueOf<K extends string> = K extends keyof KnownState ? KnownState[K] : unknown;

const DELETED = Symbol("deleted");

/**
 * Hierarchical key/value state. Reads fall through to the parent; writes and
 * deletes stay local (a local delete hides an inherited value). A state that
 * has children is sealed: its values are deep-frozen, now and when set later,
 * so no child can change what its parent sees (S2). A state without children
 * stays unfrozen, because V8 reads frozen objects several times slower and the
 * pipeline's hot path walks every message.
 */
export class ContextState {
  readonly parent?: ContextState;
  private readonly local = new Map<string, unknown>();
  private sealed = false;

  constructor(initial: Readonly<Record<string, unknown>> = {}, parent?: ContextState) {
    this.parent = parent;
    parent?.seal();
    for (const [key, value] of Object.entries(initial)) this.set(key, value);
  }

  /** Freezes every value here and in the ancestors, and every value set here from now on. */
  seal(): void {
    if (this.sealed) return;
    this.sealed = true;
    for (const value of this.local.values()) deepFreeze(value);
    this.parent?.seal();
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** Reads a key here or, failing that, from the nearest ancestor that has it. */
  get<K extends string>(key: K): ValueOf<K> | undefined {
    let state: ContextState | undefined = this;
    while (state) {
      if (state.local.has(key)) {
        const value = state.local.get(key);
        return value === DELETED ? undefined : (value as ValueOf<K>);
      }
      state = state.parent;
    }
    return undefined;
  }

  /** Reads a key, falling back to `fallback` when it is absent. */
  getOr<K extends string>(key: K, fallback: ValueOf<K>): ValueOf<K> {
    const value = this.get(key);
    return value === undefined ? fallback : value;
  }

  /** Writes locally; in a sealed state the value becomes immutable. */
  set<K extends string>(key: K, value: ValueOf<K>): void {
    if (value === undefined) throw new TypeError(`state key '${key}': use delete() instead of setting undefined`);
    this.local.set(key, this.sealed ? deepFreeze(value) : value);
  }

  /** Deletes locally; an inherited value is hidden here, never removed from the parent. */
  delete(key: string): void {
    if (this.parent?.has(key)) this.local.set(key, DELETED);
    else this.local.delete(key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Keys written (or deleted) in this state itself. */
  localKeys(): string[] {
    return [...this.local.keys()];
  }

  /** Keys deleted here that an ancestor still holds. */
  deletedKeys(): string[] {
    return [...this.local.entries()].filter(([, value]) => value === DELETED).map(([key]) => key);
  }

  /** Whether `key` is written here (not inherited). */
  isLocal(key: string): boolean {
    return this.local.has(key) && this.local.get(key) !== DELETED;
  }

  /** The merged view: ancestors' values overlaid by closer ones. */
  toObject(): Record<string, unknown> {
    const merged = this.parent ? this.parent.toObject() : {};
    for (const [key, value] of this.local) {
      if (value === DELETED) delete merged[key];
      else merged[key] = value;
    }
    return merged;
  }

  /** Only the values written here. */
  localObject(): Record<string, unknown> {
    const own: Record<string, unknown> = {};
    for (const [key, value] of this.local) if (value !== DELETED) own[key] = value;
    return own;
  }
}
