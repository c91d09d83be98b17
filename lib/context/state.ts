import { deepCopy, sharingOf, type Sharing } from "./copy";
import { ContextError } from "./errors";
import { deepFreeze } from "./freeze";
import type { Message } from "./messages";

/** The state keys the engine reads and writes. */
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
 * has children is sealed, so no child can change what its parent sees (E-S2):
 * its plain values are deep-frozen, now and when set later, and any other
 * value (a Map, a Date, a class instance...) reaches each child as the
 * child's own copy. A state without children stays unfrozen, because V8
 * reads frozen objects slower on paths that also meet unfrozen ones.
 */
export class ContextState {
  readonly parent?: ContextState;
  private readonly local = new Map<string, unknown>();
  /** Keys whose values children get as copies: a freeze could not protect them. */
  private readonly copiedKeys = new Set<string>();
  /** This state's copies of inherited values, with the value each was copied from. */
  private readonly inheritedCopies = new Map<string, { source: unknown; copy: unknown }>();
  private sealed = false;

  constructor(initial: Readonly<Record<string, unknown>> = {}, parent?: ContextState) {
    this.parent = parent;
    parent?.seal();
    for (const [key, value] of Object.entries(initial)) this.set(key, value);
  }

  /**
   * Protects every value here and in the ancestors, and every value set here
   * from now on (E-S2). Throws `ContextError`, changing nothing, when a value
   * cannot be protected (a function...).
   */
  seal(): void {
    if (this.sealed) return;
    const sharings = [...this.local].map(([key, value]): [string, unknown, Sharing] => [
      key,
      value,
      value === DELETED ? "frozen" : sharingOf(value, `state key '${key}'`),
    ]);
    this.parent?.seal();
    for (const [key, value, sharing] of sharings) this.share(key, value, sharing);
    this.sealed = true;
  }

  get isSealed(): boolean {
    return this.sealed;
  }

  /** Reads a key here or, failing that, from the nearest ancestor that has it (an inherited Map, Date... as this state's own copy). */
  get<K extends string>(key: K): ValueOf<K> | undefined {
    let state: ContextState | undefined = this;
    while (state) {
      if (state.local.has(key)) {
        const value = state.local.get(key);
        if (value === DELETED) return undefined;
        return (state !== this && state.copiedKeys.has(key) ? this.copyOf(key, value) : value) as ValueOf<K>;
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

  /** Writes locally; in a sealed state the value is protected from children first (E-S2). */
  set<K extends string>(key: K, value: ValueOf<K>): void {
    if (value === undefined) throw new ContextError(`state key '${key}': use delete() instead of setting undefined`, { where: key });
    if (this.sealed) this.share(key, value, sharingOf(value, `state key '${key}'`));
    else this.copiedKeys.delete(key);
    this.local.set(key, value);
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

  /** The merged view: ancestors' values overlaid by closer ones, read as `get` reads them. */
  toObject(): Record<string, unknown> {
    const keys = new Set<string>();
    const chain: ContextState[] = [];
    for (let state: ContextState | undefined = this; state; state = state.parent) chain.unshift(state);
    for (const state of chain) for (const key of state.local.keys()) keys.add(key);
    const merged: Record<string, unknown> = {};
    for (const key of keys) {
      const value = this.get(key);
      if (value !== undefined) merged[key] = value;
    }
    return merged;
  }

  private share(key: string, value: unknown, sharing: Sharing): void {
    if (sharing === "frozen") {
      deepFreeze(value);
      this.copiedKeys.delete(key);
    } else {
      this.copiedKeys.add(key);
    }
  }

  /** This state's own copy of an inherited value a freeze cannot protect, made on first read. */
  private copyOf(key: string, source: unknown): unknown {
    const known = this.inheritedCopies.get(key);
    if (known && known.source === source) return known.copy;
    const copy = deepCopy(source, `state key '${key}'`);
    this.inheritedCopies.set(key, { source, copy });
    return copy;
  }

  /** Only the values written here. */
  localObject(): Record<string, unknown> {
    const own: Record<string, unknown> = {};
    for (const [key, value] of this.local) if (value !== DELETED) own[key] = value;
    return own;
  }
}
