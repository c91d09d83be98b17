// E-PL6: a processor's outcome over a history array is kept for the next run over
// the same array with the same settings, whichever processor instance runs it (the
// default pipeline is built afresh for every run). A warm re-run then costs a lookup
// per processor, and each returns the very array it returned before, so the next
// processor's lookup hits too.
import type { Message } from "../messages";

const ids = new WeakMap<object, number>();
let nextId = 0;

/** A stable number for an object (a summarizer, a handle factory, a state value), for settings keys. */
export function identity(value: object): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = nextId++;
    ids.set(value, id);
  }
  return id;
}

/** How many settings one history keeps outcomes for: a slider drag tries many, the latest matter. */
const SETTINGS_PER_HISTORY = 8;

/** Outcomes by history array (held weakly) and settings key. */
export class OutcomeCache<T> {
  private readonly byHistory = new WeakMap<readonly Message[], Map<string, T>>();

  get(history: readonly Message[], key: string): T | undefined {
    return this.byHistory.get(history)?.get(key);
  }

  set(history: readonly Message[], key: string, outcome: T): T {
    let bySettings = this.byHistory.get(history);
    if (!bySettings || bySettings.size >= SETTINGS_PER_HISTORY) {
      bySettings = new Map();
      this.byHistory.set(history, bySettings);
    }
    bySettings.set(key, outcome);
    return outcome;
  }
}
