/**
 * Byte-pair merging in O(n log n) per chunk (T9): a min-heap of candidate
 * merges over a linked list of parts, instead of rescanning every pair after
 * each merge (quadratic: a 256K-character run without spaces took a minute).
 * Keys are byte strings: one char per byte (code 0–255), so a part's key is a
 * `substring` of its chunk's key and one Map serves every lookup.
 */

/** An encoding's mergeable ranks keyed by byte string, and its longest token in bytes. */
export interface RankTable {
  readonly ranks: ReadonlyMap<string, number>;
  readonly maxTokenBytes: number;
}

/** Counts heap operations, for tests that prove the merge loop's bound (T9). */
export interface MergeWork {
  heapOperations: number;
}

/** Builds the byte-string table from gpt-tokenizer's rank list (index = rank; text, or bytes that are not UTF-8). */
export function createRankTable(decoder: readonly (string | readonly number[])[]): RankTable {
  const ranks = new Map<string, number>();
  let maxTokenBytes = 0;
  decoder.forEach((token, rank) => {
    const key = typeof token === "string" ? byteKey(token, 0, token.length) : String.fromCharCode(...token);
    if (ranks.has(key)) throw new Error(`rank table: token ${rank} has the same bytes as token ${ranks.get(key)}`);
    ranks.set(key, rank);
    maxTokenBytes = Math.max(maxTokenBytes, key.length);
  });
  return { ranks, maxTokenBytes };
}

let scratch = new Uint8Array(256);

/**
 * The UTF-8 bytes of `text[start, end)` as a byte string; a lone surrogate is
 * U+FFFD (EF BF BD) as TextEncoder writes it, a byte-order mark stays.
 */
export function byteKey(text: string, start: number, end: number): string {
  let ascii = true;
  for (let index = start; index < end; index += 1) {
    if (text.charCodeAt(index) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return start === 0 && end === text.length ? text : text.slice(start, end);
  if (scratch.length < (end - start) * 3) scratch = new Uint8Array((end - start) * 3);
  const bytes = scratch;
  let length = 0;
  for (let index = start; index < end; index += 1) {
    let code = text.charCodeAt(index);
    if (code >= 0xd800 && code < 0xe000) {
      const low = index + 1 < end ? text.charCodeAt(index + 1) : 0;
      if (code < 0xdc00 && low >= 0xdc00 && low < 0xe000) {
        code = ((code - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        index += 1;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x80) bytes[length++] = code;
    else if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
      bytes[length++] = 0x80 | (code & 0x3f);
    } else if (code < 0x10000) {
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[length++] = 0x80 | (code & 0x3f);
    } else {
      bytes[length++] = 0xf0 | (code >> 18);
      bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[length++] = 0x80 | (code & 0x3f);
    }
  }
  let key = "";
  // In slices: `fromCharCode` takes its arguments on the stack.
  for (let offset = 0; offset < length; offset += 0x2000) key += String.fromCharCode.apply(null, bytes.subarray(offset, Math.min(length, offset + 0x2000)) as unknown as number[]);
  return key;
}

// A heap entry packs (rank, start) into one double: lowest rank first, then leftmost, as tiktoken merges.
const START_SPAN = 2 ** 32;

/**
 * Merges a chunk's bytes (`piece`, a byte string absent from the table) and
 * returns its tokens' ranks, or only their number when `tokens` is omitted.
 * Every merge is the lowest-ranked adjacent pair, the leftmost on a tie
 * (tiktoken's rule); stale heap entries are skipped by checking the pair's
 * current rank.
 */
export function mergeBytePairs(table: RankTable, piece: string, tokens?: number[], work?: MergeWork): number {
  const length = piece.length;
  if (length === 1) return emit(table, piece, tokens);
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  // The rank of the pair starting at each live part, -1 when it is no token.
  const pairRanks = new Int32Array(length);
  const heap = new Float64Array(3 * length);
  let heapSize = 0;
  let operations = 0;
  const rankOf = (start: number, end: number): number => {
    if (end - start > table.maxTokenBytes) return -1;
    return table.ranks.get(piece.substring(start, end)) ?? -1;
  };
  const push = (rank: number, start: number) => {
    operations += 1;
    let index = heapSize++;
    const entry = rank * START_SPAN + start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (heap[parent] <= entry) break;
      heap[index] = heap[parent];
      index = parent;
    }
    heap[index] = entry;
  };
  const pop = (): number => {
    operations += 1;
    const top = heap[0];
    const last = heap[--heapSize];
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= heapSize) break;
      if (child + 1 < heapSize && heap[child + 1] < heap[child]) child += 1;
      if (heap[child] >= last) break;
      heap[index] = heap[child];
      index = child;
    }
    heap[index] = last;
    return top;
  };
  for (let start = 0; start < length; start += 1) {
    next[start] = start + 1;
    previous[start] = start - 1;
    pairRanks[start] = start + 1 < length ? rankOf(start, start + 2) : -1;
    if (pairRanks[start] >= 0) push(pairRanks[start], start);
  }
  let parts = length;
  while (heapSize > 0) {
    const entry = pop();
    const rank = Math.floor(entry / START_SPAN);
    const start = entry - rank * START_SPAN;
    // Stale: the part was merged into its left neighbour, or its pair changed since.
    if (next[start] < 0 || pairRanks[start] !== rank) continue;
    const merged = next[start];
    const end = next[merged];
    next[start] = end;
    next[merged] = -1;
    if (end < length) previous[end] = start;
    parts -= 1;
    pairRanks[start] = end < length ? rankOf(start, next[end]) : -1;
    if (pairRanks[start] >= 0) push(pairRanks[start], start);
    const before = previous[start];
    if (before >= 0) {
      pairRanks[before] = rankOf(before, end);
      if (pairRanks[before] >= 0) push(pairRanks[before], before);
    }
  }
  if (work) work.heapOperations += operations;
  if (!tokens) return parts;
  for (let start = 0; start < length; start = next[start]) emit(table, piece.substring(start, next[start]), tokens);
  return parts;
}

function emit(table: RankTable, key: string, tokens: number[] | undefined): number {
  const rank = table.ranks.get(key);
  if (rank === undefined) throw new Error(`rank table: no token for the bytes ${Array.from(key, (character) => character.charCodeAt(0)).join(" ")}`);
  tokens?.push(rank);
  return 1;
}
