/** The marker that replaces offloaded content: `[[OFFLOADED: handle=off_<12 hex>]]`. */
export const OFFLOAD_MARKER_PATTERN = /\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]/g;

/** Makes a new handle for a piece of content; injected so tests can pin handles. */
export type HandleFactory = (content: string, taken: (handle: string) => boolean) => string;

export function offloadMarker(handle: string): string {
  return `[[OFFLOADED: handle=${handle}]]`;
}

export function isHandle(value: string): boolean {
  return /^off_[0-9a-f]{12}$/.test(value);
}

/**
 * The default handle: 48 bits of a hash of the content, so re-running the
 * pipeline on the same history gives the same handles (the inspector re-runs
 * on every slider move). A collision with a different content re-hashes with
 * a seed, so handles stay unique.
 */
export const contentHandle: HandleFactory = (content, taken) => {
  for (let seed = 0; ; seed += 1) {
    const handle = `off_${hash48(content, seed)}`;
    if (!taken(handle)) return handle;
  }
};

/** Random handles (seed 000: `off_{uuid4().hex[:12]}`), for callers that want them. */
export const randomHandle: HandleFactory = (_content, taken) => {
  for (;;) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    const handle = `off_${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
    if (!taken(handle)) return handle;
  }
};

// cyrb53's two 32-bit lanes (public domain); 12 hex digits of them.
function hash48(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return ((h2 >>> 0) & 0xffff).toString(16).padStart(4, "0") + (h1 >>> 0).toString(16).padStart(8, "0");
}
