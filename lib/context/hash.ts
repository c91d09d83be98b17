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
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
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
