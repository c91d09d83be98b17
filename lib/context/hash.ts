/**
 * cyrb53 (public domain): a fast, well-mixed 53-bit string hash. Handles and
 * message fingerprints are built on it, so both stay stable across releases.
 */
export function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  return cyrb53Final(h1, h2);
}

/** cyrb53's last mixing step, of its two running states. */
function cyrb53Final(h1: number, h2: number): number {
  const mixed1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  const mixed2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(mixed1 ^ (mixed1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & mixed2) + (mixed1 >>> 0);
}

/**
 * Two cyrb53 hashes of one text under two seeds, as base-36 `first.second`:
 * the same text `cyrb53(text, first)` and `cyrb53(text, second)` give, in
 * one pass over the text instead of two (fingerprints of long histories are
 * hashed on every recorded call).
 * @example hashPair("abc", 1, 2) === `${cyrb53("abc", 1).toString(36)}.${cyrb53("abc", 2).toString(36)}`
 */
export function hashPair(text: string, first: number, second: number): string {
  let a1 = 0xdeadbeef ^ first;
  let a2 = 0x41c6ce57 ^ first;
  let b1 = 0xdeadbeef ^ second;
  let b2 = 0x41c6ce57 ^ second;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a1 = Math.imul(a1 ^ code, 2654435761);
    a2 = Math.imul(a2 ^ code, 1597334677);
    b1 = Math.imul(b1 ^ code, 2654435761);
    b2 = Math.imul(b2 ^ code, 1597334677);
  }
  return `${cyrb53Final(a1, a2).toString(36)}.${cyrb53Final(b1, b2).toString(36)}`;
}

/**
 * A JSON value with every object's keys in sorted order, so values that differ
 * only in the order of their keys compare and hash alike.
 * @example JSON.stringify(sortKeys({ b: 1, a: [{ d: 2, c: 3 }] })) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}

/**
 * E-M3: two JSON values are the same value when their JSON texts are: key order
 * counts, so use it on values one writer made (a request, stored settings,
 * tool definitions). Messages compare with `sameMessage`.
 * @example sameJson({ a: [1] }, { a: [1] }) // true
 */
export function sameJson(left: unknown, right: unknown): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}
