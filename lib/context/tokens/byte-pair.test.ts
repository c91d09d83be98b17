import cl100kRanks from "gpt-tokenizer/bpeRanks/cl100k_base";
import { describe, expect, it } from "vitest";
import { referenceEncode } from "../test-support/reference-tokenizer";
import { createRankTable, encodeUtf8, findRank, mergeBytePairs, type MergeWork } from "./byte-pair";

const table = createRankTable(cl100kRanks);

function workOnRun(length: number): MergeWork & { tokens: number } {
  const work: MergeWork = { heapOperations: 0, siftSteps: 0 };
  const tokens = mergeBytePairs(table, new Uint8Array(length).fill(0x61), length, undefined, work);
  return { ...work, tokens };
}

describe("mergeBytePairs (E-T9)", () => {
  it("[E-T9] does n log n work on a run of one character: 16× the input costs under 25× the work", () => {
    const small = workOnRun(65_536);
    const large = workOnRun(1_048_576);
    expect(small.tokens).toBe(65_536 / 8);
    expect(large.tokens).toBe(1_048_576 / 8);
    // Every merge is a constant number of pushes and pops; sifting adds the log factor.
    expect(large.heapOperations / small.heapOperations).toBeLessThan(17);
    // At most 3n pushes (n - 1 pairs, then two per merge) and as many pops.
    expect(large.heapOperations).toBeLessThan(6 * 1_048_576);
    expect(large.siftSteps / small.siftSteps).toBeLessThan(25);
    // A sift moves an entry at most one level of the four-ary heap (at most 2n entries) per step.
    expect(large.siftSteps).toBeLessThanOrEqual(large.heapOperations * Math.ceil(Math.log(2 * 1_048_576) / Math.log(4)));
  });

  it("[E-T9] merges the lowest rank first and the leftmost of equal ranks, as js-tiktoken", () => {
    for (const text of [
      "aaaaaaa",
      "abababab",
      "==========",
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "ACGTTGCAACGTAGCTAGCTAGGATCCGAT",
      "ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt",
    ]) {
      const bytes = new Uint8Array(3 * text.length);
      const length = encodeUtf8(text, 0, text.length, bytes, 0);
      const tokens: number[] = [];
      expect(mergeBytePairs(table, bytes, length, tokens)).toBe(tokens.length);
      expect(tokens).toEqual(referenceEncode("cl100k_base", text));
    }
  });
});

describe("createRankTable", () => {
  it("[E-T5] finds every token by its bytes, a byte-order mark included, and nothing else", () => {
    const bytes = new Uint8Array(64);
    const lookup = (text: string) => findRank(table, bytes, 0, encodeUtf8(text, 0, text.length, bytes, 0));
    for (const text of ["hello", " world", "\uFEFF", "\uFFFD", '{"', '":"']) {
      const reference = referenceEncode("cl100k_base", text);
      expect(reference).toHaveLength(1);
      expect(lookup(text)).toBe(reference[0]);
    }
    expect(lookup("<|endoftext|>")).toBe(-1);
    expect(lookup("qzxqzxqzxqzx")).toBe(-1);
    expect(lookup("\uD83D")).toBe(lookup("\uFFFD"));
    // Bytes that are no UTF-8 text (a lone continuation byte) are tokens too.
    bytes[0] = 0x80;
    expect(findRank(table, bytes, 0, 1)).toBeGreaterThanOrEqual(0);
    expect(table.maxTokenBytes).toBeLessThan(256);
  });

  it("refuses a rank list where two ranks have the same bytes", () => {
    expect(() => createRankTable(["a", "b", [0x61]])).toThrow(/token 2 has the same bytes as token 0/);
  });
});
