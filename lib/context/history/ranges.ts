/**
 * Half-open ranges of history indices, ascending and disjoint:
 * `[[1, 4], [6, 7]]` is 1, 2, 3 and 6. Effects record the messages they
 * touched this way, so dropping 10,000 messages is one range, not 10,000 numbers.
 */
export type IndexRanges = readonly (readonly [start: number, end: number])[];

/** Ranges of a list of indices (in any order, repeats allowed). */
export function toRanges(indices: Iterable<number>): IndexRanges {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const index of sorted) {
    const last = ranges.at(-1);
    if (last && last[1] === index) last[1] = index + 1;
    else ranges.push([index, index + 1]);
  }
  return ranges;
}

/** The one range `[start, end)`, or none when it is empty. */
export function rangeOf(start: number, end: number): IndexRanges {
  return end > start ? [[start, end]] : [];
}

/** How many indices the ranges hold. */
export function rangesSize(ranges: IndexRanges): number {
  let size = 0;
  for (const [start, end] of ranges) size += end - start;
  return size;
}

/** Every index the ranges hold, in order. */
export function* rangeIndices(ranges: IndexRanges): Generator<number> {
  for (const [start, end] of ranges) for (let index = start; index < end; index += 1) yield index;
}

/** The single index of ranges holding exactly one, else undefined. */
export function onlyIndex(ranges: IndexRanges): number | undefined {
  return ranges.length === 1 && ranges[0][1] - ranges[0][0] === 1 ? ranges[0][0] : undefined;
}
