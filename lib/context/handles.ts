import { cyrb53 } from "./hash";

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

/** Random handles (`off_` and 12 hex digits), for callers that want them. */
export const randomHandle: HandleFactory = (_content, taken) => {
  for (;;) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
    const handle = `off_${[...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
    if (!taken(handle)) return handle;
  }
};

/** 48 bits of cyrb53 as 12 hex digits. */
function hash48(text: string, seed: number): string {
  return (cyrb53(text, seed) % 2 ** 48).toString(16).padStart(12, "0");
}
