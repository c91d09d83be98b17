/**
 * A values diff in the spirit of tldraw's `RecordsDiff`: what a later value
 * added, changed (`[from, to]`) and removed, keyed by dotted paths into nested
 * objects. Pure and isomorphic (no `server-only`): the checkpoint API computes
 * it and the UI reuses it on values it already holds.
 */

/** A JSON value, as checkpoint values are stored. */
export type DiffValue = string | number | boolean | null | DiffValue[] | { [key: string]: DiffValue };

/** What changed from one object to another, by path (`budget.tokens`, `todos`, `["a.b"].c`). */
export interface ValuesDiff {
  /** Paths only the later value has, with that value whole. */
  added: Record<string, DiffValue>;
  /** Paths both have with different values: `[from, to]`. */
  updated: Record<string, [DiffValue, DiffValue]>;
  /** Paths only the earlier value has, with the value it had. */
  removed: Record<string, DiffValue>;
}

export interface DiffValuesOptions {
  /**
   * "atomic" (default) compares arrays whole, so an inserted item shows the
   * array before and after; "index" descends into them (`todos.3.status`).
   */
  arrays?: "atomic" | "index";
}

const plainKey = /^[A-Za-z_$][\w$-]*$|^\d+$/;

/** Appends a key to a dotted path; keys a dot would make ambiguous are written `["like.this"]`. */
export function joinDiffPath(path: string, key: string): string {
  if (!plainKey.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

function isPlainObject(value: unknown): value is { [key: string]: DiffValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values; key order does not matter. */
export function diffValuesEqual(left: DiffValue | undefined, right: DiffValue | undefined): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, index) => diffValuesEqual(item, right[index]));
  }
  if (!isPlainObject(left) || !isPlainObject(right)) return false;
  const leftKeys = Object.keys(left);
  if (leftKeys.length !== Object.keys(right).length) return false;
  return leftKeys.every((key) => Object.hasOwn(right, key) && diffValuesEqual(left[key], right[key]));
}

/** Children to descend into, or undefined when the value is a leaf under `options`. */
function childrenOf(value: DiffValue, options: DiffValuesOptions): Record<string, DiffValue> | undefined {
  if (isPlainObject(value)) return value;
  if (Array.isArray(value) && options.arrays === "index") return Object.fromEntries(value.map((item, index) => [String(index), item]));
  return undefined;
}

function walk(from: DiffValue, to: DiffValue, path: string, diff: ValuesDiff, options: DiffValuesOptions): void {
  const fromChildren = childrenOf(from, options);
  const toChildren = childrenOf(to, options);
  // Descend only when both sides are containers of the same kind; otherwise the path changed whole.
  if (!fromChildren || !toChildren || Array.isArray(from) !== Array.isArray(to)) {
    if (!diffValuesEqual(from, to)) diff.updated[path] = [from, to];
    return;
  }
  for (const [key, value] of Object.entries(fromChildren)) {
    const child = joinDiffPath(path, key);
    if (!Object.hasOwn(toChildren, key)) diff.removed[child] = value;
    else walk(value, toChildren[key], child, diff, options);
  }
  for (const [key, value] of Object.entries(toChildren)) {
    if (!Object.hasOwn(fromChildren, key)) diff.added[joinDiffPath(path, key)] = value;
  }
}

/**
 * The diff from `from` to `to`, recursing into nested objects; a key present
 * on one side only is reported whole, with no paths below it.
 * @example diffValues({ a: 1, b: { c: 2 } }, { b: { c: 3 }, d: 4 })
 * // { added: { d: 4 }, updated: { "b.c": [2, 3] }, removed: { a: 1 } }
 */
export function diffValues(from: { [key: string]: DiffValue }, to: { [key: string]: DiffValue }, options: DiffValuesOptions = {}): ValuesDiff {
  const diff: ValuesDiff = { added: {}, updated: {}, removed: {} };
  walk(from, to, "", diff, options);
  return diff;
}

/** True when the diff records no change. */
export function isEmptyDiff(diff: ValuesDiff): boolean {
  return Object.keys(diff.added).length === 0 && Object.keys(diff.updated).length === 0 && Object.keys(diff.removed).length === 0;
}
