import "server-only";

/** What this process imported from a session file: the conversations, newest import last. */
export interface ImportedSessionRecord {
  path: string;
  sessionId: string;
  conversationIds: string[];
  at: string;
}

const REGISTRY_KEY = Symbol.for("context-lab.local-agents.imports");
const globalForRegistry = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Map<string, ImportedSessionRecord> };

function registry(): Map<string, ImportedSessionRecord> {
  globalForRegistry[REGISTRY_KEY] ??= new Map();
  return globalForRegistry[REGISTRY_KEY];
}

/** Remembers which conversations a session file was imported as (by real path). */
export function rememberImport(record: ImportedSessionRecord): void {
  registry().set(record.path, record);
}

export function importOfPath(path: string): ImportedSessionRecord | null {
  return registry().get(path) ?? null;
}

/** Forgets a path's import (its conversation was deleted). */
export function forgetImport(path: string): void {
  registry().delete(path);
}

/** Forgets every import. Tests only. */
export function clearImportsForTests(): void {
  registry().clear();
}

const LOCKS_KEY = Symbol.for("context-lab.local-agents.locks");
const globalForLocks = globalThis as typeof globalThis & { [LOCKS_KEY]?: Map<string, Promise<unknown>> };

/** Runs `work` after every earlier one for the same path: an import button and a follower never import one file at once. */
export function withPathLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  globalForLocks[LOCKS_KEY] ??= new Map();
  const locks = globalForLocks[LOCKS_KEY];
  const previous = locks.get(path) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  locks.set(path, settled);
  void settled.then(() => {
    if (locks.get(path) === settled) locks.delete(path);
  });
  return next;
}
