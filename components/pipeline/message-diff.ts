import { messageKey, onlyIndex, rangeIndices, type Message, type MessageEffect, type MessageEffectKind } from "@/lib/context/light";
// One definition of "the same message" for histories that crossed a structured clone.

/** One aligned position of a step's diff; indices point into the history before and after the step. */
export type DiffEntry =
  | { type: "unchanged"; before: number; after: number }
  | { type: "removed"; before: number; effect?: MessageEffectKind }
  | { type: "added"; after: number; effect?: MessageEffectKind }
  | { type: "replaced"; before: number; after: number; effect?: MessageEffectKind };

export interface MessageDiffCounts {
  unchanged: number;
  removed: number;
  added: number;
  replaced: number;
}

export interface MessageDiff {
  entries: DiffEntry[];
  counts: MessageDiffCounts;
}

/**
 * Where each message of `after` came from in `before` (-1 when new). Processors
 * never mutate messages, so identity finds the unchanged ones in O(n); equal
 * content matches the rest in order.
 */
function matchMessages(before: readonly Message[], after: readonly Message[]): number[] {
  const byIdentity = new Map<Message, number[]>();
  before.forEach((message, index) => {
    const list = byIdentity.get(message);
    if (list) list.push(index);
    else byIdentity.set(message, [index]);
  });
  const taken = new Uint8Array(before.length);
  const match = after.map((message) => {
    const index = byIdentity.get(message)?.shift();
    if (index === undefined) return -1;
    taken[index] = 1;
    return index;
  });
  if (!match.includes(-1)) return match;
  const byKey = new Map<string, number[]>();
  before.forEach((message, index) => {
    if (taken[index]) return;
    const key = messageKey(message);
    const list = byKey.get(key);
    if (list) list.push(index);
    else byKey.set(key, [index]);
  });
  return match.map((index, position) => (index >= 0 ? index : (byKey.get(messageKey(after[position]))?.shift() ?? -1)));
}

/**
 * Aligns the history a processor received with the one it returned: unchanged
 * messages anchor the alignment; between anchors, messages an effect replaced
 * one-for-one (or equal numbers of leftovers) pair up as replaced, the rest are
 * removed or added. Effects, when given, name what happened to each.
 */
export function diffMessages(before: readonly Message[], after: readonly Message[], effects: readonly MessageEffect[] = []): MessageDiff {
  const match = matchMessages(before, after);
  const removedBy = new Map<number, MessageEffectKind>();
  const addedBy = new Map<number, MessageEffectKind>();
  const oneToOne = new Map<number, number>();
  for (const effect of effects) {
    for (const index of rangeIndices(effect.before)) removedBy.set(index, effect.kind);
    for (const index of rangeIndices(effect.after)) addedBy.set(index, effect.kind);
    const [from, to] = [onlyIndex(effect.before), onlyIndex(effect.after)];
    if (from !== undefined && to !== undefined) oneToOne.set(from, to);
  }

  const entries: DiffEntry[] = [];
  const counts: MessageDiffCounts = { unchanged: 0, removed: 0, added: 0, replaced: 0 };
  const push = (entry: DiffEntry) => {
    entries.push(entry);
    counts[entry.type] += 1;
  };

  const flushGap = (fromBefore: number, toBefore: number, fromAfter: number, toAfter: number) => {
    const paired = new Map<number, number>();
    for (let index = fromBefore; index < toBefore; index += 1) {
      const target = oneToOne.get(index);
      if (target !== undefined && target >= fromAfter && target < toAfter) paired.set(index, target);
    }
    const claimed = new Set(paired.values());
    const leftBefore: number[] = [];
    const leftAfter: number[] = [];
    for (let index = fromBefore; index < toBefore; index += 1) if (!paired.has(index)) leftBefore.push(index);
    for (let index = fromAfter; index < toAfter; index += 1) if (!claimed.has(index)) leftAfter.push(index);
    if (leftBefore.length === leftAfter.length) leftBefore.forEach((index, position) => paired.set(index, leftAfter[position]));
    const pairedAfter = new Set(paired.values());
    // Walk both sides in order so replaced rows sit where their messages were.
    let nextAfter = fromAfter;
    const emitAddedUpTo = (limit: number) => {
      for (; nextAfter < limit; nextAfter += 1) if (!pairedAfter.has(nextAfter)) push({ type: "added", after: nextAfter, effect: addedBy.get(nextAfter) });
    };
    for (let index = fromBefore; index < toBefore; index += 1) {
      const target = paired.get(index);
      if (target === undefined) {
        push({ type: "removed", before: index, effect: removedBy.get(index) });
        continue;
      }
      emitAddedUpTo(target);
      push({ type: "replaced", before: index, after: target, effect: removedBy.get(index) ?? addedBy.get(target) });
      nextAfter = Math.max(nextAfter, target + 1);
    }
    emitAddedUpTo(toAfter);
  };

  let lastBefore = -1;
  let lastAfter = -1;
  match.forEach((index, position) => {
    if (index <= lastBefore) return;
    flushGap(lastBefore + 1, index, lastAfter + 1, position);
    push({ type: "unchanged", before: index, after: position });
    lastBefore = index;
    lastAfter = position;
  });
  flushGap(lastBefore + 1, before.length, lastAfter + 1, after.length);
  return { entries, counts };
}
