// Indexes by history identity (I3). A history array is a value (M1): the index
// made for it stays right for as long as it lives.
import { freezeCached } from "../checks";
import type { Message } from "../messages";
import { HistoryIndex, type HistoryPiece } from "./history-index";

const indexes = new WeakMap<readonly Message[], HistoryIndex>();
/**
 * The latest indexed histories ending with each message: where an appended
 * history finds the one it extends. Several, because a processor's output
 * often ends with the same message as its input.
 */
const endingWith = new WeakMap<Message, WeakRef<readonly Message[]>[]>();
/** Histories remembered per last message. */
const ENDING_WITH_KEPT = 4;
/** How many trailing messages an appended history may add and still find the history it extends. */
const APPEND_LOOKBACK = 64;

/**
 * The index of a history: the one kept for this array, else one extended from
 * the indexed history this array appends to (its every shared position
 * checked by identity), else one built from nothing.
 */
export function indexOf(history: readonly Message[]): HistoryIndex {
  const known = indexes.get(history);
  if (known && known.length === history.length) return known;
  const before = extendedHistory(history);
  return remember(history, before ? HistoryIndex.appended(history, before) : HistoryIndex.fresh(history));
}

/**
 * Records how a processor made `next` from `base`: `pieces`, in order, are
 * ranges of base's positions and messages it wrote. The next index over
 * `next` then reads what it shares with base from base's index.
 * @example deriveHistory(next, history, [{ from: 0, to: start }, { message: summary }, { from: end, to: history.length }])
 */
export function deriveHistory(next: readonly Message[], base: readonly Message[], pieces: readonly HistoryPiece[]): readonly Message[] {
  if (!indexes.has(next)) remember(next, HistoryIndex.derived(next, indexOf(base), pieces));
  return next;
}

function remember(history: readonly Message[], index: HistoryIndex): HistoryIndex {
  // T7: with development checks on, an in-place edit of a cached history throws.
  indexes.set(freezeCached(history), index);
  const last = history.at(-1);
  if (last) {
    const kept = (endingWith.get(last) ?? []).filter((entry) => {
      const alive = entry.deref();
      return alive !== undefined && alive !== history;
    });
    endingWith.set(last, [new WeakRef(history), ...kept].slice(0, ENDING_WITH_KEPT));
  }
  return index;
}

function extendedHistory(history: readonly Message[]): HistoryIndex | undefined {
  for (let end = history.length; end > 0 && end >= history.length - APPEND_LOOKBACK; end -= 1) {
    for (const entry of endingWith.get(history[end - 1]) ?? []) {
      const candidate = entry.deref();
      if (!candidate || candidate.length !== end || candidate === history) continue;
      const index = indexes.get(candidate);
      if (index && index.length === end && sharesPrefix(candidate, history)) return index;
    }
  }
  return undefined;
}

function sharesPrefix(prefix: readonly Message[], history: readonly Message[]): boolean {
  for (let position = 0; position < prefix.length; position += 1) if (prefix[position] !== history[position]) return false;
  return true;
}
