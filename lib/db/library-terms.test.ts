import { describe, expect, it } from "vitest";
import { dayTermOf, MAX_TERM_LENGTH, prefixUpperBound, termsOf } from "./library-terms";

describe("library terms", () => {
  it("[LB-1] splits text into distinct lower-case words, keeping ISO dates whole", () => {
    expect(termsOf("Refund ORDER-4471, refund again on 2026-11-29 via gpt-4o")).toEqual([
      "refund",
      "order",
      "4471",
      "again",
      "on",
      "2026-11-29",
      "via",
      "gpt",
      "4o",
    ]);
    expect(termsOf("Zürich ﬁle")).toEqual(["zürich", "file"]);
    expect(termsOf("\u0000 \ud800 — ")).toEqual([]);
    expect(termsOf("x".repeat(200))).toEqual(["x".repeat(MAX_TERM_LENGTH)]);
    // Cut by code points: an astral letter is one of them, never split in half.
    expect(termsOf("𠀀".repeat(100))).toEqual(["𠀀".repeat(MAX_TERM_LENGTH)]);
    expect(termsOf(`a${"𠀀".repeat(100)}`)).toEqual([`a${"𠀀".repeat(MAX_TERM_LENGTH - 1)}`]);
    expect(termsOf("z".repeat(1_000_000))).toEqual(["z".repeat(MAX_TERM_LENGTH)]);
  });

  it("[LB-1] bounds a prefix: every word that starts with it sorts in [prefix, bound), in code point order", () => {
    const words = ["ab", "abc", "abz", "ab\u{1F600}", "ac", "aa", "abé"];
    const bound = prefixUpperBound("ab");
    expect(bound).toBe("ac");
    // UTF-8 bytes sort as code points, as SQLite and PostgreSQL's "C" collation compare them.
    const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
    const inRange = words.filter((word) => byCodePoint(word, "ab") >= 0 && byCodePoint(word, bound) < 0);
    expect(inRange.sort()).toEqual(words.filter((word) => word.startsWith("ab")).sort());
    expect(prefixUpperBound("z")).toBe("{");
    expect(prefixUpperBound("\ud7ff")).toBe("\ue000");
  });

  it("[LB-1] names a day as the index holds it", () => {
    expect(dayTermOf(new Date("2026-11-29T23:59:00Z"))).toBe("2026-11-29");
  });
});
