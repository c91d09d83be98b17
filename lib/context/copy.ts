// Deep copies of state values, and how a sealed state shares them with its
// children (E-S2): plain data is frozen and shared as it is; anything a freeze
// cannot protect (a Map, a Set, a Date, a typed array, a class instance) is
// handed to each child as its own copy; what cannot be copied at all is
// refused with a ContextError naming where it is.
import { ContextError } from "./errors";
import { isDeeplyFrozen } from "./freeze";

/** How a sealed state gives a value to its children: shared frozen, or copied on a child's first read. */
export type Sharing = "frozen" | "copied";

type Key = string | number | symbol;

const TYPED_ARRAYS = [
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
] as const;

/** Values whose state lives where no copy can reach (a closure, the engine's internals). */
const UNCOPYABLE: readonly [abstract new (...args: never[]) => object, string][] = [
  [WeakMap, "a WeakMap"],
  [WeakSet, "a WeakSet"],
  [WeakRef, "a WeakRef"],
  [Promise, "a Promise"],
  [FinalizationRegistry, "a FinalizationRegistry"],
];

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null || prototype === Array.prototype;
}

/** Values with no children to walk: their contents are bytes or a number. */
function isLeaf(value: object): boolean {
  return value instanceof Date || value instanceof RegExp || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

/** Calls `visit` for every value `value` holds: elements, own data properties, a Map's keys and entries, a Set's entries. */
function forEachChild(value: object, visit: (child: unknown, key: Key) => void): void {
  if (Array.isArray(value) && isPlain(value)) {
    for (let index = 0; index < value.length; index += 1) visit(value[index], index);
  } else if (isPlain(value)) {
    for (const key of Object.keys(value)) visit((value as Record<string, unknown>)[key], key);
  } else if (value instanceof Map) {
    let index = 0;
    for (const [key, entry] of value) {
      visit(key, `<key ${index}>`);
      visit(entry, `<entry ${index++}>`);
    }
  } else if (value instanceof Set) {
    let index = 0;
    for (const entry of value) visit(entry, `<entry ${index++}>`);
  } else if (!isLeaf(value)) {
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor && "value" in descriptor) visit(descriptor.value, key);
    }
  }
}

/** Walks a value depth first with its path, refusing what cannot be copied. */
function walk(value: unknown, where: string, enter: (current: object) => boolean): void {
  const path: Key[] = [];
  const seen = new Set<object>();
  const visit = (current: unknown, key?: Key) => {
    if (key !== undefined) path.push(key);
    if (typeof current === "function") refuse(where, path, "a function");
    if (typeof current === "object" && current !== null && !seen.has(current)) {
      seen.add(current);
      const uncopyable = UNCOPYABLE.find(([type]) => current instanceof type);
      if (uncopyable) refuse(where, path, uncopyable[1]);
      if (enter(current)) forEachChild(current, visit);
    }
    if (key !== undefined) path.pop();
  };
  visit(value);
}

function refuse(where: string, path: readonly Key[], what: string): never {
  const at = [where, ...path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))].join("");
  throw new ContextError(
    `${at}: ${what} cannot be copied, so a child could change what its parent sees through it; keep data (plain objects, arrays, Maps, Sets, Dates, typed arrays, class instances) in state`,
    { where: at },
  );
}

/**
 * How a sealed state shares `value` with its children (E-S2), without changing
 * it: plain data (primitives, arrays, plain objects) is frozen; anything else
 * is copied. Throws `ContextError` for what cannot be copied (functions,
 * WeakMaps, Promises...), naming the path.
 */
export function sharingOf(value: unknown, where: string): Sharing {
  let plain = true;
  walk(value, where, (current) => {
    if (isDeeplyFrozen(current)) return false;
    if (!isPlain(current)) plain = false;
    return true;
  });
  return plain ? "frozen" : "copied";
}

/**
 * A deep copy that keeps what `structuredClone` loses: class instances keep
 * their prototype (and so their methods), Maps, Sets, Dates, RegExps and
 * typed arrays their type, shared references and cycles their shape. A class
 * that keeps state in `#private` fields cannot be copied (nothing can reach
 * them): its copy fails loudly when used. Throws `ContextError` for functions
 * and other values that cannot be copied, naming where (`where` prefixes the path).
 * @example const copy = deepCopy(ctx.state.toObject(), "state")
 */
export function deepCopy<T>(value: T, where = "value"): T {
  walk(value, where, () => true);
  const copies = new Map<object, unknown>();
  const copy = (current: unknown): unknown => {
    if (typeof current !== "object" || current === null) return current;
    const known = copies.get(current);
    if (known !== undefined) return known;
    const result = shell(current);
    copies.set(current, result);
    fill(current, result, copy);
    return result;
  };
  return copy(value) as T;
}

/** An empty copy of one object with its prototype (complete, for leaves). */
function shell(value: object): object {
  const prototype = Object.getPrototypeOf(value) as object | null;
  let result: object;
  if (Array.isArray(value)) result = new Array<unknown>(value.length);
  else if (value instanceof Map) result = new Map();
  else if (value instanceof Set) result = new Set();
  else if (value instanceof Date) result = new Date(value.getTime());
  else if (value instanceof RegExp) result = Object.assign(new RegExp(value.source, value.flags), { lastIndex: value.lastIndex });
  else if (value instanceof ArrayBuffer) result = value.slice(0);
  else if (ArrayBuffer.isView(value)) result = copyView(value);
  else return Object.create(prototype);
  if (Object.getPrototypeOf(result) !== prototype) Object.setPrototypeOf(result, prototype);
  return result;
}

function copyView(view: ArrayBufferView): ArrayBufferView {
  // The view's own bytes into a fresh buffer: `slice` on some subclasses (Node's Buffer) shares memory.
  const bytes = (view.buffer as ArrayBuffer).slice(view.byteOffset, view.byteOffset + view.byteLength);
  if (view instanceof DataView) return new DataView(bytes);
  const type = TYPED_ARRAYS.find((candidate) => view instanceof candidate) ?? Uint8Array;
  return new type(bytes);
}

function fill(source: object, target: object, copy: (child: unknown) => unknown): void {
  if (source instanceof Map) {
    for (const [key, entry] of source) (target as Map<unknown, unknown>).set(copy(key), copy(entry));
  } else if (source instanceof Set) {
    for (const entry of source) (target as Set<unknown>).add(copy(entry));
  } else if (Array.isArray(source) && isPlain(source)) {
    for (let index = 0; index < source.length; index += 1) (target as unknown[])[index] = copy(source[index]);
  } else if (isPlain(source)) {
    for (const key of Object.keys(source)) {
      const value = copy((source as Record<string, unknown>)[key]);
      // A `__proto__` key must stay a key, not set the prototype.
      if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
      else (target as Record<string, unknown>)[key] = value;
    }
  } else if (!isLeaf(source)) {
    for (const key of Reflect.ownKeys(source)) {
      const descriptor = Object.getOwnPropertyDescriptor(source, key)!;
      if ("value" in descriptor) descriptor.value = copy(descriptor.value);
      Object.defineProperty(target, key, descriptor);
    }
  }
}
