// Indexes by history identity (E-I3). A history array is a value (E-M1): the index
// made for it stays right for as long as it lives.
import { freezeCached } from "../checks";
import type { Message } from "../messages";
import { HistoryIndex, type HistoryPiece } from "./history-index";
import { countCompared } from "./work";

const indexes = new WeakMap<readonly Message[], HistoryIndex>();
/** The latest indexed histories ending with a message, by length. */
type EndingWith = WeakMap<Message, Map<number, WeakRef<readonly Message[]>[]>>;
/**
 * Where an appended history finds the one it extends: histories indexed as
 * given, searched first, and histories a processor made (a replay extends the
 * request it sent). Apart, because a processor's output often ends with its
 * input's last message and keeps its length: it never hides its input.
 */
const givenEndingWith: EndingWith = new WeakMap();
const madeEndingWith: EndingWith = new WeakMap();
/** The order an appended history searches them in. */
const SEARCHED: readonly EndingWith[] = [givenEndingWith, madeEndingWith];
/** Histories remembered per last message and length, given and made apart. */
const KEPT_PER_LENGTH = 4;
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
  const index = remember(history, before ? HistoryIndex.appended(history, before) : HistoryIndex.fresh(history));
  rememberEnding(givenEndingWith, history);
  return index;
}

/**
 * `history` with `messages` appended, as a new array whose index extends
 * `history`'s without comparing a position (E-I3): an appended turn then
 * costs a run what is new, even at 100,000 messages. A plain
 * `[...history, message]` gives the same results; its index is found by
 * comparing every shared position by identity.
 * @example const next = appendMessages(history, [{ role: "user", content: "And my seat?" }])
 */
export function appendMessages(history: readonly Message[], messages: readonly Message[]): readonly Message[] {
  const next = history.concat(messages);
  remember(next, HistoryIndex.appended(next, indexOf(history)));
  rememberEnding(givenEndingWith, next);
  return next;
}

/**
 * Records how a processor made `next` from `base`: `pieces`, in order, are
 * ranges of base's positions and messages it wrote. The next index over
 * `next` then reads what it shares with base from base's index.
 * @example deriveHistory(next, history, [{ from: 0, to: start }, { message: summary }, { from: end, to: history.length }])
 */
export function deriveHistory(next: readonly Message[], base: readonly Message[], pieces: readonly HistoryPiece[]): readonly Message[] {
  if (!indexes.has(next)) {
    remember(next, HistoryIndex.derived(next, indexOf(base), pieces));
    rememberEnding(madeEndingWith, next);
  }
  return next;
}

function remember(history: readonly Message[], index: HistoryIndex): HistoryIndex {
  // E-T7: with development checks on, an in-place edit of a cached history throws.
  indexes.set(freezeCached(history), index);
  return index;
}

function rememberEnding(endingWith: EndingWith, history: readonly Message[]): void {
  const last = history.at(-1);
  if (!last) return;
  let byLength = endingWith.get(last);
  if (!byLength) endingWith.set(last, (byLength = new Map()));
  const kept = (byLength.get(history.length) ?? []).filter((entry) => {
    const alive = entry.deref();
    return alive !== undefined && alive !== history;
  });
  byLength.set(history.length, [new WeakRef(history), ...kept].slice(0, KEPT_PER_LENGTH));
}

function extendedHistory(history: readonly Message[]): HistoryIndex | undefined {
  for (let end = history.length; end > 0 && end >= history.length - APPEND_LOOKBACK; end -= 1) {
    for (const endingWith of SEARCHED) {
      for (const entry of endingWith.get(history[end - 1])?.get(end) ?? []) {
        const candidate = entry.deref();
        if (!candidate || candidate === history) continue;
        const index = indexes.get(candidate);
        if (index && index.length === end && sharesPrefix(candidate, history)) return index;
      }
    }
  }
  return undefined;
}

/** Compared from the end: two histories of one length that differ mostly differ late (an edited or regenerated turn). */
function sharesPrefix(prefix: readonly Message[], history: readonly Message[]): boolean {
  for (let position = prefix.length - 1; position >= 0; position -= 1)
    if (prefix[position] !== history[position]) {
      countCompared(prefix.length - position);
      return false;
    }
  countCompared(prefix.length);
  return true;
}
