// A 10 MB run through the byte-pair merge (E-T9): exhaustive, so the full suite (`npm test`) runs it, not `npm run test:fast`.
import { describe, expect, it } from "vitest";
import { referenceEncode } from "../test-support/reference-tokenizer";
import { getTextEncoder } from "./encodings";

describe("mergeBytePairs on long runs (E-T9)", () => {
  it("[E-T9] encodes a 10 MB run of one character, token for token what js-tiktoken gives on shorter runs", () => {
    const eight = referenceEncode("cl100k_base", "a".repeat(8));
    expect(eight).toHaveLength(1);
    // js-tiktoken merges quadratically: it is the reference on runs it can finish.
    for (const repeats of [1, 10, 100, 1_000]) expect(referenceEncode("cl100k_base", "a".repeat(8 * repeats))).toEqual(Array(repeats).fill(eight[0]));
    const encoder = getTextEncoder("cl100k_base");
    const run = "a".repeat(10 * 2 ** 20);
    const tokens = encoder.encode(run);
    expect(tokens).toHaveLength(run.length / 8);
    expect(tokens.every((token) => token === eight[0])).toBe(true);
  }, 300_000);
});
