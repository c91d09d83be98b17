/**
 * A tab's cursor on the branch it shows (LV-LC1–LV-LC4 in README.md): the length of
 * the history it holds. A branch's positions are the database's, dense and
 * only ever appended to, so they order its writes alike on SQLite and
 * PostgreSQL and on every instance; nothing else needs numbering.
 */
export interface Positioned {
  position: number;
}

/** Positions `[from, to)` of a branch to read because no event brought them. */
export interface MissingRange {
  from: number;
  to: number;
}

export interface AppendPlan<T extends Positioned> {
  /** The messages past the cursor, each position once, in position order. */
  fresh: T[];
  /** What to read before `fresh` can be added, or null when `fresh` continues the cursor. */
  missing: MissingRange | null;
}

/**
 * What a tab holding `cursor` messages does with messages an event appended
 * (LV-LC2, LV-LC3): those at or below the cursor are already shown; when the rest
 * does not start at the cursor, the positions in between are read first.
 */
export function planAppend<T extends Positioned>(cursor: number, messages: readonly T[]): AppendPlan<T> {
  const byPosition = new Map<number, T>();
  for (const message of messages) {
    if (message.position >= cursor && !byPosition.has(message.position)) byPosition.set(message.position, message);
  }
  const fresh = [...byPosition.values()].sort((first, second) => first.position - second.position);
  if (fresh.length === 0) return { fresh, missing: null };
  const first = fresh[0].position;
  const last = fresh[fresh.length - 1].position;
  if (last - first + 1 !== fresh.length) return { fresh, missing: { from: cursor, to: last + 1 } };
  return { fresh, missing: first === cursor ? null : { from: cursor, to: first } };
}

/**
 * The messages that continue the cursor without a hole (LV-LC3): from position
 * `cursor` on, up to the first position none of them holds. Anything past a
 * hole waits for a later read.
 */
export function takeContiguous<T extends Positioned>(cursor: number, messages: readonly T[]): T[] {
  const byPosition = new Map<number, T>();
  for (const message of messages) if (!byPosition.has(message.position)) byPosition.set(message.position, message);
  const taken: T[] = [];
  for (let position = cursor; byPosition.has(position); position += 1) taken.push(byPosition.get(position)!);
  return taken;
}
