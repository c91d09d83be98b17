import { BytePairEncodingCore } from "gpt-tokenizer/BytePairEncodingCore";
import { ENCODINGS, isEncodingName, type EncodingName } from "./encoding-names";

export { DEFAULT_ENCODING, ENCODINGS, encodingForModel, isEncodingName, type EncodingName } from "./encoding-names";

/**
 * The pre-tokenisation patterns, exactly as js-tiktoken ships them (its
 * `pat_str`); a test pins them to js-tiktoken so the two can never drift.
 */
export const SPLIT_PATTERNS: Readonly<Record<EncodingName, string>> = Object.freeze({
  cl100k_base: String.raw`('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  o200k_base: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*('s|'S|'t|'T|'re|'rE|'Re|'RE|'ve|'vE|'Ve|'VE|'m|'M|'ll|'lL|'Ll|'LL|'d|'D)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
});

/** Counts tokens of plain text; special-token text is ordinary text (T2). */
export interface TextEncoder {
  readonly encoding: EncodingName;
  count(text: string): number;
  encode(text: string): number[];
}

type Ranks = ConstructorParameters<typeof BytePairEncodingCore>[0]["bytePairRankDecoder"];

// One dynamic import per encoding: a bundler gives each its own chunk (~1.2 MB cl100k_base, ~2.4 MB o200k_base).
const RANK_LOADERS: Readonly<Record<EncodingName, () => Promise<Ranks>>> = {
  cl100k_base: () => import("gpt-tokenizer/bpeRanks/cl100k_base").then((module) => module.default),
  o200k_base: () => import("gpt-tokenizer/bpeRanks/o200k_base").then((module) => module.default),
};

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
  const bytePairRankDecoder = ranks.get(encoding);
  if (!bytePairRankDecoder) throw new Error(`the ${encoding} ranks are not loaded: await loadEncoding("${encoding}") before counting in a Web Worker`);
  // gpt-tokenizer's BPE core is ~7x faster than js-tiktoken with identical merges.
  // No special tokens are registered, so `<|endoftext|>` in user text is plain text.
  const core = new BytePairEncodingCore({
    bytePairRankDecoder,
    tokenSplitRegex: new RegExp(SPLIT_PATTERNS[encoding], "gu"),
    specialTokensEncoder: new Map(),
  });
  keepByteOrderMarks(core);
  return {
    encoding,
    count: (text) => (text.length === 0 ? 0 : core.countNative(text)),
    encode: (text) => (text.length === 0 ? [] : core.encodeNative(text)),
  };
}

interface RankLookups {
  getBpeRankFromBytes(key: Uint8Array): number | undefined;
  bytePairStringRankEncoder: Map<string, number>;
  bytePairNonUtfSortedEncoder: readonly [Uint8Array, number][];
  binarySearch(key: Uint8Array): number;
}

const byteOrderMarkDecoder = new globalThis.TextDecoder("utf-8", { ignoreBOM: true, fatal: true });

/**
 * gpt-tokenizer looks merge keys up through a TextDecoder that strips a
 * leading U+FEFF, so every token starting with EF BB BF is missed and text
 * holding a byte-order mark counts wrong. This lookup keeps the mark. The
 * test against js-tiktoken fails loudly if the library's internals move.
 */
function keepByteOrderMarks(core: BytePairEncodingCore): void {
  const lookups = core as unknown as RankLookups;
  const original = lookups.getBpeRankFromBytes.bind(core);
  if (typeof original !== "function" || typeof lookups.binarySearch !== "function") {
    throw new Error("gpt-tokenizer internals changed: the byte-order-mark fix no longer applies");
  }
  lookups.getBpeRankFromBytes = (key: Uint8Array) => {
    if (key[0] !== 0xef || key[1] !== 0xbb || key[2] !== 0xbf) return original(key);
    let text: string | undefined;
    try {
      text = byteOrderMarkDecoder.decode(key);
    } catch {
      text = undefined;
    }
    const fromString = text === undefined ? undefined : lookups.bytePairStringRankEncoder.get(text);
    if (fromString !== undefined) return fromString;
    const index = lookups.binarySearch.call(core, key);
    return index === -1 ? undefined : lookups.bytePairNonUtfSortedEncoder[index][1];
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
