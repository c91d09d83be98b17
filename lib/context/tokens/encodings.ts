import { createRankTable, encodeUtf8, findRank, mergeBytePairs, SteppedMerge } from "./byte-pair";
import { ENCODINGS, isEncodingName, type EncodingName } from "./encoding-names";
import { CHUNK_ENDS } from "./pre-tokenize";

export { DEFAULT_ENCODING, ENCODINGS, encodingForModel, isEncodingName, type EncodingName } from "./encoding-names";

/**
 * The pre-tokenisation patterns, exactly as js-tiktoken ships them (its
 * `pat_str`); a test pins them to js-tiktoken so the two can never drift.
 */
export const SPLIT_PATTERNS: Readonly<Record<EncodingName, string>> = Object.freeze({
  cl100k_base: String.raw`('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  o200k_base: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
});

/** Counts tokens of plain text; special-token text is ordinary text (E-T2). */
export interface TextEncoder {
  readonly encoding: EncodingName;
  count(text: string): number;
  encode(text: string): number[];
  /**
   * `count` in steps, awaiting `pause` between them (E-T10): for a caller
   * that must not hold its thread. The count of a text of LONG_TEXT_LENGTH
   * characters or more is kept, so a `count` of it afterwards is a lookup.
   */
  countInSteps(text: string, pause: () => Promise<void>): Promise<number>;
}

/** E-T10: texts this long have their counts kept (a few of them), and are what `countInSteps` is for. */
export const LONG_TEXT_LENGTH = 65_536;
/** E-T10: a step walks at most this many characters of a text... */
const STEP_CHARACTERS = 65_536;
/** ...and a chunk longer than this is merged in steps of STEP_OPERATIONS heap operations (a few milliseconds each). */
const STEP_CHUNK_LENGTH = 4_096;
const STEP_OPERATIONS = 50_000;
const LONG_COUNTS_KEPT = 32;

/** gpt-tokenizer's rank list: index = rank; the token's text, or its bytes when they are not UTF-8. */
type Ranks = readonly (string | readonly number[])[];

// One dynamic import per encoding: a bundler gives each its own chunk (~1.2 MB cl100k_base, ~2.4 MB o200k_base).
const RANK_LOADERS: Readonly<Record<EncodingName, () => Promise<Ranks>>> = {
  cl100k_base: () => import("gpt-tokenizer/bpeRanks/cl100k_base").then((module) => module.default),
  o200k_base: () => import("gpt-tokenizer/bpeRanks/o200k_base").then((module) => module.default),
};

const MERGE_CACHE_CHUNK_LENGTH = 32;
const MERGE_CACHE_SIZE = 16_384;

const ranks = new Map<EncodingName, Ranks>();
const loading = new Map<EncodingName, Promise<void>>();
const encoders = new Map<EncodingName, TextEncoder>();

/**
 * Loads an encoding's BPE ranks. Outside Web Workers every encoding is loaded
 * once this module has evaluated (below), so nothing needs to call this; in a
 * Web Worker it must be awaited before the first count with that encoding, so
 * a worker only downloads and evaluates the ranks it counts with.
 */
export function loadEncoding(encoding: EncodingName): Promise<void> {
  if (!isEncodingName(encoding)) return Promise.reject(new TypeError(`unknown encoding '${String(encoding)}': use cl100k_base or o200k_base`));
  let pending = loading.get(encoding);
  if (!pending) {
    pending = RANK_LOADERS[encoding]().then((loaded) => void ranks.set(encoding, loaded));
    // A failed download may be retried.
    pending.catch(() => loading.delete(encoding));
    loading.set(encoding, pending);
  }
  return pending;
}

/** Whether an encoding's ranks are loaded (always, outside Web Workers). */
export function isEncodingLoaded(encoding: EncodingName): boolean {
  return ranks.has(encoding);
}

/** The shared encoder of an encoding, built on first use; in a Web Worker, after `await loadEncoding(encoding)`. */
export function getTextEncoder(encoding: EncodingName): TextEncoder {
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = createTextEncoder(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

function createTextEncoder(encoding: EncodingName): TextEncoder {
  if (!isEncodingName(encoding)) throw new TypeError(`unknown encoding '${String(encoding)}': use cl100k_base or o200k_base`);
  const decoder = ranks.get(encoding);
  if (!decoder) throw new Error(`the ${encoding} ranks are not loaded: await loadEncoding("${encoding}") before counting in a Web Worker`);
  const table = createRankTable(decoder);
  const chunkEnd = CHUNK_ENDS[encoding];
  let piece = new Uint8Array(1024);
  /** Writes the chunk's UTF-8 bytes into `piece` and returns their length. */
  const encodeChunk = (text: string, start: number, end: number): number => {
    if (piece.length < 3 * (end - start)) piece = new Uint8Array(3 * (end - start));
    return encodeUtf8(text, start, end, piece, 0);
  };
  // No special tokens are known here, so `<|endoftext|>` in user text is plain text (E-T2).
  const chunkTokens = (text: string, start: number, end: number, tokens?: number[]): number => {
    const length = encodeChunk(text, start, end);
    // Most chunks are one token: a single lookup, no merging.
    const rank = findRank(table, piece, 0, length);
    if (rank >= 0) {
      tokens?.push(rank);
      return 1;
    }
    const merged = mergeShort(text, start, end, length);
    if (!merged) return mergeBytePairs(table, piece, length, tokens);
    if (tokens) for (const token of merged) tokens.push(token);
    return merged.length;
  };
  const walk = (text: string, tokens?: number[]): number => {
    let count = 0;
    for (let start = 0; start < text.length; ) {
      const end = chunkEnd(text, start);
      count += chunkTokens(text, start, end, tokens);
      start = end;
    }
    return count;
  };
  // E-T10: the same chunks and merges as `walk`, with a pause every STEP_CHARACTERS and inside long merges.
  const walkInSteps = async (text: string, pause: () => Promise<void>): Promise<number> => {
    let count = 0;
    let walked = 0;
    for (let start = 0; start < text.length; ) {
      const end = chunkEnd(text, start);
      if (end - start > STEP_CHUNK_LENGTH) {
        // The bytes are copied into the merge: other counts may reuse `piece` during its pauses.
        const length = encodeChunk(text, start, end);
        const merge = new SteppedMerge(table, piece, length);
        while (!merge.step(STEP_OPERATIONS)) await pause();
        count += merge.finish();
      } else count += chunkTokens(text, start, end);
      walked += end - start;
      start = end;
      if (walked >= STEP_CHARACTERS && start < text.length) {
        walked = 0;
        await pause();
      }
    }
    return count;
  };
  // Short chunks that need merging repeat (ids, codes, JSON keys): their tokens are kept, a bounded number of them.
  const mergedTokens = new Map<string, number[]>();
  const mergeShort = (text: string, start: number, end: number, length: number): number[] | undefined => {
    if (end - start > MERGE_CACHE_CHUNK_LENGTH) return undefined;
    const key = text.slice(start, end);
    let merged = mergedTokens.get(key);
    if (!merged) {
      merged = [];
      mergeBytePairs(table, piece, length, merged);
      if (mergedTokens.size >= MERGE_CACHE_SIZE) mergedTokens.clear();
      mergedTokens.set(key, merged);
    }
    return merged;
  };
  // Long texts' counts, the oldest dropped first: a text counted in steps is counted again, synchronously, by whoever stores it.
  const longCounts = new Map<string, number>();
  const keep = (text: string, count: number): number => {
    if (longCounts.size >= LONG_COUNTS_KEPT) longCounts.delete(longCounts.keys().next().value as string);
    longCounts.set(text, count);
    return count;
  };
  return {
    encoding,
    count: (text) => (text.length < LONG_TEXT_LENGTH ? walk(text) : (longCounts.get(text) ?? keep(text, walk(text)))),
    encode: (text) => {
      const tokens: number[] = [];
      walk(text, tokens);
      return tokens;
    },
    countInSteps: async (text, pause) => {
      if (text.length < LONG_TEXT_LENGTH) return walk(text);
      return longCounts.get(text) ?? keep(text, await walkInSteps(text, pause));
    },
  };
}

function inWebWorker(): boolean {
  const scope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
  return typeof scope === "function" && globalThis instanceof scope;
}

// The server, scripts and tests count synchronously from the first call, as the engine's API promises:
// both encodings load with this module. A Web Worker (the playground's pipeline) starts without them and
// loads the one its settings count with (`loadEncoding`), instead of evaluating ~3.6 MB of ranks up front.
if (!inWebWorker()) await Promise.all(ENCODINGS.map(loadEncoding));
