import type { EncodingName } from "./encoding-names";

/**
 * Hand-written pre-tokenizers, chunk for chunk identical to js-tiktoken's split
 * patterns (`SPLIT_PATTERNS`) run with the `u` flag (E-T8): a `u`-flag regex with
 * Unicode property classes reads only ~5–10 MB/s, a table lookup per code point
 * several times that. Each alternative of a pattern is a branch below, tried in
 * the pattern's order, with the regex's greedy backtracking worked out by hand.
 */
export type ChunkEnd = (text: string, start: number) => number;

// Character classes, one bit each, per code point.
const LETTER = 1; // \p{L}
const NUMBER = 2; // \p{N}
const SPACE = 4; // \s
const UPPER = 8; // o200k_base's [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const LOWER = 16; // o200k_base's [\p{Ll}\p{Lm}\p{Lo}\p{M}]
const NEWLINE = 32; // [\r\n]
const KNOWN = 64; // the astral code point has been classified

const CLASS_PATTERNS: readonly (readonly [number, RegExp])[] = [
  [LETTER, /\p{L}/u],
  [NUMBER, /\p{N}/u],
  [SPACE, /\s/u],
  [UPPER, /[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]/u],
  [LOWER, /[\p{Ll}\p{Lm}\p{Lo}\p{M}]/u],
];

let table: Uint8Array | undefined;

/** Classes of every code point: the BMP filled at once by the patterns themselves, astral planes on first sight. */
function classTable(): Uint8Array {
  if (table) return table;
  const classes = new Uint8Array(0x110000);
  // Every BMP code point but the surrogates (a lone one is in no class).
  let bmp = "";
  for (let code = 0; code < 0x10000; code += 0x400) {
    if (code >= 0xd800 && code < 0xe000) continue;
    bmp += String.fromCharCode(...Array.from({ length: 0x400 }, (_, offset) => code + offset));
  }
  for (const [bit, pattern] of CLASS_PATTERNS) {
    for (const match of bmp.matchAll(new RegExp(`${pattern.source}+`, "gu"))) {
      for (let index = match.index; index < match.index + match[0].length; index += 1) {
        const code = bmp.charCodeAt(index);
        classes[code] |= bit;
      }
    }
  }
  classes[0x0d] |= NEWLINE;
  classes[0x0a] |= NEWLINE;
  table = classes;
  return classes;
}

function astralClass(classes: Uint8Array, codePoint: number): number {
  let bits = classes[codePoint];
  if (bits & KNOWN) return bits;
  const character = String.fromCodePoint(codePoint);
  bits = KNOWN;
  for (const [bit, pattern] of CLASS_PATTERNS) if (pattern.test(character)) bits |= bit;
  classes[codePoint] = bits;
  return bits;
}

/** The classes of the code point at `index`; a lone surrogate is in none (as for the regex). */
function classAt(classes: Uint8Array, text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code >= 0xe000) return classes[code];
  if (code >= 0xdc00 || index + 1 >= text.length) return 0;
  const low = text.charCodeAt(index + 1);
  if (low < 0xdc00 || low >= 0xe000) return 0;
  return astralClass(classes, ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000);
}

/** The index after the code point at `index`. */
function after(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 0xd800 || code >= 0xdc00 || index + 1 >= text.length) return index + 1;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low < 0xe000 ? index + 2 : index + 1;
}

/** The end of the run of code points in `mask` from `index` (or, with `outside`, of those in none of it). */
function runEnd(classes: Uint8Array, text: string, index: number, mask: number, outside = false): number {
  const length = text.length;
  while (index < length) {
    const code = text.charCodeAt(index);
    // Below the surrogates a code unit is its code point: no pairing to check.
    if (code < 0xd800) {
      if (((classes[code] & mask) === 0) !== outside) break;
      index += 1;
    } else {
      if (((classAt(classes, text, index) & mask) === 0) !== outside) break;
      index = after(text, index);
    }
  }
  return index;
}

/** `[^\s\p{L}\p{N}]+` from `index`. */
function otherRunEnd(classes: Uint8Array, text: string, index: number): number {
  return runEnd(classes, text, index, LETTER | NUMBER | SPACE, true);
}

function isOther(classes: Uint8Array, text: string, index: number): boolean {
  return index < text.length && !(classAt(classes, text, index) & (LETTER | NUMBER | SPACE));
}

/** `\p{N}{1,3}` from a number. */
function digitsEnd(classes: Uint8Array, text: string, index: number): number {
  for (let count = 0; count < 3 && index < text.length && classAt(classes, text, index) & NUMBER; count += 1) index = after(text, index);
  return index;
}

/** `[\r\n]*` (cl100k_base) or `[\r\n/]*` (o200k_base) from `index`. */
function trailEnd(text: string, index: number, slash: boolean): number {
  for (;;) {
    const code = text.charCodeAt(index);
    if (code === 0x0d || code === 0x0a || (slash && code === 0x2f)) index += 1;
    else return index;
  }
}

/** `'s|'t|'re|'ve|'m|'ll|'d` in any letter case at `index`, else -1. */
function contractionEnd(text: string, index: number): number {
  if (text.charCodeAt(index) !== 0x27) return -1;
  const first = text.charCodeAt(index + 1) | 0x20;
  if (first === 0x73 || first === 0x74 || first === 0x6d || first === 0x64) return index + 2;
  const second = text.charCodeAt(index + 2) | 0x20;
  if ((first === 0x72 || first === 0x76) && second === 0x65) return index + 3;
  if (first === 0x6c && second === 0x6c) return index + 3;
  return -1;
}

/**
 * The alternatives on white space: `\s*[\r\n]+` ends after the run's last line
 * break; else `\s+(?!\S)` leaves the run's last space to the next chunk unless
 * the text ends; else `\s+` is that one space.
 */
function spaceEnd(classes: Uint8Array, text: string, start: number): number {
  let index = start;
  let lastBreak = -1;
  while (index < text.length && classes[text.charCodeAt(index)] & SPACE) {
    const code = text.charCodeAt(index);
    if (code === 0x0d || code === 0x0a) lastBreak = index;
    index += 1; // every \s code point is in the BMP
  }
  if (lastBreak >= 0) return lastBreak + 1;
  if (index === text.length || index - 1 === start) return index;
  return index - 1;
}

function cl100kChunkEnd(text: string, start: number): number {
  const classes = classTable();
  const first = classAt(classes, text, start);
  const second = after(text, start);
  // '(s|t|re|ve|m|ll|d)
  const contraction = contractionEnd(text, start);
  if (contraction > 0) return contraction;
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (first & LETTER) return runEnd(classes, text, second, LETTER);
  if (!(first & (NUMBER | NEWLINE)) && second < text.length && classAt(classes, text, second) & LETTER) return runEnd(classes, text, second, LETTER);
  // \p{N}{1,3}
  if (first & NUMBER) return digitsEnd(classes, text, start);
  // ` ?[^\s\p{L}\p{N}]+[\r\n]*`
  if (!(first & SPACE)) return trailEnd(text, otherRunEnd(classes, text, second), false);
  if (text.charCodeAt(start) === 0x20 && isOther(classes, text, second)) return trailEnd(text, otherRunEnd(classes, text, second), false);
  return spaceEnd(classes, text, start);
}

/**
 * `[UPPER]*[LOWER]+` from `index`, else -1: the longest run of UPPER, then the
 * run of LOWER after it; when none follows, the regex backtracks to the run's
 * last code point that is also LOWER (Lm, Lo, M are in both).
 */
function casedEnd(classes: Uint8Array, text: string, index: number): number {
  let lastLowerEnd = -1;
  while (index < text.length) {
    const bits = classAt(classes, text, index);
    if (!(bits & UPPER)) break;
    index = after(text, index);
    if (bits & LOWER) lastLowerEnd = index;
  }
  if (index < text.length && classAt(classes, text, index) & LOWER) return runEnd(classes, text, index, LOWER);
  return lastLowerEnd;
}

/** The optional contraction ending o200k_base's two word alternatives. */
function withContraction(text: string, index: number): number {
  const contraction = contractionEnd(text, index);
  return contraction > 0 ? contraction : index;
}

function o200kChunkEnd(text: string, start: number): number {
  const classes = classTable();
  const first = classAt(classes, text, start);
  const second = after(text, start);
  const prefixed = !(first & (LETTER | NUMBER | NEWLINE)) && second < text.length;
  // [^\r\n\p{L}\p{N}]?[UPPER]*[LOWER]+(contraction)?: with the prefix, then without
  if (prefixed) {
    const end = casedEnd(classes, text, second);
    if (end > 0) return withContraction(text, end);
  }
  if (first & (UPPER | LOWER)) {
    const end = casedEnd(classes, text, start);
    if (end > 0) return withContraction(text, end);
  }
  // [^\r\n\p{L}\p{N}]?[UPPER]+[LOWER]*(contraction)?
  if (prefixed && classAt(classes, text, second) & UPPER) return withContraction(text, runEnd(classes, text, runEnd(classes, text, second, UPPER), LOWER));
  if (first & UPPER) return withContraction(text, runEnd(classes, text, runEnd(classes, text, start, UPPER), LOWER));
  // \p{N}{1,3}
  if (first & NUMBER) return digitsEnd(classes, text, start);
  // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
  if (!(first & SPACE)) return trailEnd(text, otherRunEnd(classes, text, second), true);
  if (text.charCodeAt(start) === 0x20 && isOther(classes, text, second)) return trailEnd(text, otherRunEnd(classes, text, second), true);
  return spaceEnd(classes, text, start);
}

/** Where the chunk starting at `start` ends, per encoding; chunks cover the text with no gaps. */
export const CHUNK_ENDS: Readonly<Record<EncodingName, ChunkEnd>> = Object.freeze({
  cl100k_base: cl100kChunkEnd,
  o200k_base: o200kChunkEnd,
});

/** The chunks of `text`, as strings (for tests and the benchmark; the encoder walks `CHUNK_ENDS` without them). */
export function preTokenize(encoding: EncodingName, text: string): string[] {
  const chunkEnd = CHUNK_ENDS[encoding];
  const chunks: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start);
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}
