/**
 * Byte-pair merging in O(n log n) per chunk (E-T9): a min-heap of candidate
 * merges over a linked list of parts, instead of rescanning every pair after
 * each merge (quadratic: a 256K-character run without spaces took a minute).
 * Ranks are looked up on bytes in an open-addressing hash table, so neither a
 * chunk nor a candidate pair ever becomes a string: a string key per lookup
 * (slice, hash, Map probe) cost more than the whole rest of the count.
 */

/** An encoding's mergeable ranks: every token's bytes, and a hash table from bytes to rank. */
export interface RankTable {
  /** Every token's bytes, in rank order. */
  readonly bytes: Uint8Array;
  /** Rank `r`'s bytes are `bytes[starts[r], starts[r + 1])` (empty for an unused rank). */
  readonly starts: Int32Array;
  /** Open addressing, linear probing: rank + 1 per slot, 0 when empty. */
  readonly slots: Int32Array;
  readonly maxTokenBytes: number;
}

/** Counts the merge loop's work, for tests that prove its bound without timing it (E-T9). */
export interface MergeWork {
  /** Pushes and pops. */
  heapOperations: number;
  /** Entries moved while sifting up or down: the log factor. */
  siftSteps: number;
}

/** Builds the table from gpt-tokenizer's rank list (index = rank; text, or bytes that are not UTF-8). */
export function createRankTable(decoder: readonly (string | readonly number[] | undefined)[]): RankTable {
  const starts = new Int32Array(decoder.length + 1);
  let bytes = new Uint8Array(decoder.length * 8);
  let length = 0;
  let maxTokenBytes = 0;
  for (let rank = 0; rank < decoder.length; rank += 1) {
    const token = decoder[rank];
    const size = typeof token === "string" ? token.length * 3 : (token?.length ?? 0);
    if (bytes.length < length + size) {
      const grown = new Uint8Array(2 * (length + size));
      grown.set(bytes.subarray(0, length));
      bytes = grown;
    }
    if (typeof token === "string") length += encodeUtf8(token, 0, token.length, bytes, length);
    else if (token) for (const byte of token) bytes[length++] = byte;
    starts[rank + 1] = length;
    maxTokenBytes = Math.max(maxTokenBytes, starts[rank + 1] - starts[rank]);
  }
  let capacity = 1;
  while (capacity < 2 * decoder.length) capacity *= 2;
  const table: RankTable = { bytes: bytes.slice(0, length), starts, slots: new Int32Array(capacity), maxTokenBytes };
  for (let rank = 0; rank < decoder.length; rank += 1) {
    const start = starts[rank];
    const end = starts[rank + 1];
    if (start === end) continue;
    const existing = findRank(table, table.bytes, start, end);
    if (existing >= 0) throw new Error(`rank table: token ${rank} has the same bytes as token ${existing}`);
    let slot = hashBytes(table.bytes, start, end) & (capacity - 1);
    while (table.slots[slot] !== 0) slot = (slot + 1) & (capacity - 1);
    table.slots[slot] = rank + 1;
  }
  return table;
}

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  // FNV-1a, its high bits folded into the low ones the mask keeps.
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ bytes[index], 0x01000193);
  return hash ^ (hash >>> 16);
}

/** The rank of the token whose bytes are `source[start, end)`, or -1. */
export function findRank(table: RankTable, source: Uint8Array, start: number, end: number): number {
  const length = end - start;
  if (length > table.maxTokenBytes) return -1;
  const { bytes, starts, slots } = table;
  const mask = slots.length - 1;
  for (let slot = hashBytes(source, start, end) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
    const rank = slots[slot] - 1;
    const offset = starts[rank];
    if (starts[rank + 1] - offset !== length) continue;
    let index = 0;
    while (index < length && bytes[offset + index] === source[start + index]) index += 1;
    if (index === length) return rank;
  }
  return -1;
}

/**
 * Writes the UTF-8 bytes of `text[start, end)` at `target[at]` and returns how
 * many; a lone surrogate is U+FFFD (EF BF BD) as TextEncoder writes it, and a
 * byte-order mark stays. `target` needs room for 3 bytes per UTF-16 unit.
 */
export function encodeUtf8(text: string, start: number, end: number, target: Uint8Array, at: number): number {
  let length = at;
  for (let index = start; index < end; index += 1) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      target[length++] = code;
      continue;
    }
    if (code >= 0xd800 && code < 0xe000) {
      const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
      if (code < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        index += 1;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x800) {
      target[length++] = 0xc0 | (code >> 6);
      target[length++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      target[length++] = 0xe0 | (code >> 12);
      target[length++] = 0x80 | ((code >> 6) & 0x3f);
      target[length++] = 0x80 | (code & 0x3f);
    } else {
      target[length++] = 0xf0 | (code >> 18);
      target[length++] = 0x80 | ((code >> 12) & 0x3f);
      target[length++] = 0x80 | ((code >> 6) & 0x3f);
      target[length++] = 0x80 | (code & 0x3f);
    }
  }
  return length - at;
}

// A heap entry packs (rank, start) into one double: lowest rank first, then leftmost, as tiktoken merges.
const START_SPAN = 2 ** 32;

/** A merge's working state: the list of parts, each part's pair rank, and the heap of candidate merges. */
interface MergeScratch {
  next: Int32Array<ArrayBuffer>;
  previous: Int32Array<ArrayBuffer>;
  /** The rank of the pair starting at each live part, -1 when those bytes are no token. */
  pairRanks: Int32Array<ArrayBuffer>;
  heap: Float64Array<ArrayBuffer>;
  heapSize: number;
  siftSteps: number;
  parts: number;
  operations: number;
}

// The state of the merge running now, in module variables the loop reads fastest. A one-call merge
// uses the shared arrays below, grown on demand (JavaScript runs one call to completion); a merge
// run in steps (`SteppedMerge`) swaps its own in for each step and out again.
let next = new Int32Array(64);
let previous = new Int32Array(64);
let pairRanks = new Int32Array(64);
let heap = new Float64Array(192);
let heapSize = 0;
let siftSteps = 0;
let parts = 0;
let operations = 0;

function reserve(length: number): void {
  if (next.length >= length) return;
  next = new Int32Array(length);
  previous = new Int32Array(length);
  pairRanks = new Int32Array(length);
  // `length - 1` entries at first; each merge pops one and pushes at most two.
  heap = new Float64Array(2 * length);
}

function saveScratch(): MergeScratch {
  return { next, previous, pairRanks, heap, heapSize, siftSteps, parts, operations };
}

function loadScratch(scratch: MergeScratch): void {
  ({ next, previous, pairRanks, heap, heapSize, siftSteps, parts, operations } = scratch);
}

// A four-ary heap: half the levels of a binary one, and a node's children share a cache line.
function push(rank: number, start: number): void {
  let index = heapSize++;
  const entry = rank * START_SPAN + start;
  while (index > 0) {
    const parent = (index - 1) >> 2;
    if (heap[parent] <= entry) break;
    siftSteps += 1;
    heap[index] = heap[parent];
    index = parent;
  }
  heap[index] = entry;
}

function pop(): number {
  const top = heap[0];
  const last = heap[--heapSize];
  let index = 0;
  for (;;) {
    const first = 4 * index + 1;
    if (first >= heapSize) break;
    let child = first;
    const end = Math.min(first + 4, heapSize);
    for (let sibling = first + 1; sibling < end; sibling += 1) if (heap[sibling] < heap[child]) child = sibling;
    if (heap[child] >= last) break;
    siftSteps += 1;
    heap[index] = heap[child];
    index = child;
  }
  heap[index] = last;
  return top;
}

/** Links `piece[0, length)` as one part per byte and pushes every pair that is a token. */
function beginMerge(table: RankTable, piece: Uint8Array, length: number): void {
  heapSize = 0;
  siftSteps = 0;
  operations = 0;
  parts = length;
  for (let start = 0; start < length; start += 1) {
    next[start] = start + 1;
    previous[start] = start - 1;
    pairRanks[start] = start + 1 < length ? findRank(table, piece, start, start + 2) : -1;
    if (pairRanks[start] >= 0) {
      push(pairRanks[start], start);
      operations += 1;
    }
  }
}

/**
 * Pops and applies candidate merges until the heap is empty or `budget` heap
 * operations were done; true when the merge is complete. A popped entry is
 * stale when its part is gone or the part's pair has another rank now, and is
 * skipped.
 */
function continueMerge(table: RankTable, piece: Uint8Array, length: number, budget: number): boolean {
  const limit = operations + budget;
  while (heapSize > 0) {
    if (operations >= limit) return false;
    const entry = pop();
    operations += 1;
    const rank = Math.floor(entry / START_SPAN);
    const start = entry - rank * START_SPAN;
    if (next[start] < 0 || pairRanks[start] !== rank) continue;
    const merged = next[start];
    const end = next[merged];
    next[start] = end;
    next[merged] = -1;
    if (end < length) previous[end] = start;
    parts -= 1;
    pairRanks[start] = end < length ? findRank(table, piece, start, next[end]) : -1;
    if (pairRanks[start] >= 0) {
      push(pairRanks[start], start);
      operations += 1;
    }
    const before = previous[start];
    if (before >= 0) {
      pairRanks[before] = findRank(table, piece, before, end);
      if (pairRanks[before] >= 0) {
        push(pairRanks[before], before);
        operations += 1;
      }
    }
  }
  return true;
}

/** The finished merge's number of tokens, their ranks pushed onto `tokens` when given. */
function endMerge(table: RankTable, piece: Uint8Array, length: number, tokens: number[] | undefined, work: MergeWork | undefined): number {
  if (work) {
    work.heapOperations += operations;
    work.siftSteps += siftSteps;
  }
  if (tokens) for (let start = 0; start < length; start = next[start]) emit(table, piece, start, next[start], tokens);
  return parts;
}

/**
 * Merges a chunk's bytes (`piece[0, length)`, absent from the table) and
 * returns its number of tokens, pushing their ranks onto `tokens` when given.
 * Every merge is the lowest-ranked adjacent pair, the leftmost on a tie
 * (tiktoken's rule).
 */
export function mergeBytePairs(table: RankTable, piece: Uint8Array, length: number, tokens?: number[], work?: MergeWork): number {
  if (length === 1) return emit(table, piece, 0, 1, tokens);
  reserve(length);
  beginMerge(table, piece, length);
  continueMerge(table, piece, length, Number.POSITIVE_INFINITY);
  return endMerge(table, piece, length, tokens, work);
}

/**
 * `mergeBytePairs` in steps of a bounded number of heap operations, for a
 * chunk so long that merging it in one call would hold the thread (E-T10):
 * the caller lets other work run between `step`s. Each merge in steps has
 * its own state and its own copy of the bytes, so merges of other chunks may
 * run between its steps; the tokens are exactly `mergeBytePairs`' tokens.
 */
export class SteppedMerge {
  private readonly piece: Uint8Array;
  private readonly scratch: MergeScratch;
  private done = false;

  constructor(
    private readonly table: RankTable,
    piece: Uint8Array,
    private readonly length: number,
  ) {
    this.piece = piece.slice(0, length);
    const shared = saveScratch();
    loadScratch({
      next: new Int32Array(length),
      previous: new Int32Array(length),
      pairRanks: new Int32Array(length),
      heap: new Float64Array(2 * length),
      heapSize: 0,
      siftSteps: 0,
      parts: 0,
      operations: 0,
    });
    beginMerge(table, this.piece, length);
    this.scratch = saveScratch();
    loadScratch(shared);
  }

  /** Runs at most `budget` more heap operations; true once the merge is complete. */
  step(budget: number): boolean {
    if (this.done) return true;
    const shared = saveScratch();
    loadScratch(this.scratch);
    try {
      this.done = continueMerge(this.table, this.piece, this.length, budget);
      Object.assign(this.scratch, saveScratch());
    } finally {
      loadScratch(shared);
    }
    return this.done;
  }

  /** The number of tokens, their ranks pushed onto `tokens` when given; only once `step` returned true. */
  finish(tokens?: number[], work?: MergeWork): number {
    if (!this.done) throw new Error("SteppedMerge.finish: the merge is not complete, call step() until it returns true");
    const shared = saveScratch();
    loadScratch(this.scratch);
    try {
      return endMerge(this.table, this.piece, this.length, tokens, work);
    } finally {
      loadScratch(shared);
    }
  }
}

function emit(table: RankTable, piece: Uint8Array, start: number, end: number, tokens: number[] | undefined): number {
  const rank = findRank(table, piece, start, end);
  if (rank < 0) throw new Error(`rank table: no token for the bytes ${Array.from(piece.subarray(start, end)).join(" ")}`);
  tokens?.push(rank);
  return 1;
}
