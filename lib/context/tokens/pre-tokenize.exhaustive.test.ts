// The pre-tokenizer against the split patterns themselves (E-T8): every character class, random UTF-16, adversarial
// runs and the whole tau-bench corpus. Exhaustive: the full suite (`npm test`) runs it, not `npm run test:fast`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allTrajectories } from "../test-support/tau-bench";
import { ENCODINGS, SPLIT_PATTERNS, type EncodingName } from "./encodings";
import { preTokenize } from "./pre-tokenize";

const byRegex = (encoding: EncodingName, text: string) => Array.from(text.matchAll(new RegExp(SPLIT_PATTERNS[encoding], "gu")), (match) => match[0]);

// One or more code points of every class the patterns tell apart: letters by case (Lu, Ll, Lt, Lm, Lo), marks
// (Mn, Mc, Me), numbers (Nd, Nl, No), white space inside and outside `\s`, line breaks, apostrophes and
// contraction letters, `/`, other symbols, astral letters, digits and emoji, lone and paired surrogates.
const PIECES = [
  "a",
  "Z",
  "s",
  "t",
  "re",
  "ve",
  "m",
  "ll",
  "d",
  "LL",
  "é",
  "É",
  "ß",
  "Σ",
  "ς",
  "ǅ",
  "ʰ",
  "ˆ",
  "々",
  "漢",
  "ا",
  "ア",
  "한",
  "\u0301",
  "\u0903",
  "\u20DD",
  "0",
  "7",
  "٣",
  "Ⅻ",
  "½",
  "〇",
  " ",
  "  ",
  "\t",
  "\r",
  "\n",
  "\r\n",
  "\u000B",
  "\u000C",
  "\u00A0",
  "\u0085",
  "\u2028",
  "\u3000",
  "\uFEFF",
  "\u200B",
  "'",
  "'s",
  "'S",
  "'re",
  "'LL",
  "'d",
  "'x",
  "/",
  "?",
  "!",
  "...",
  "=",
  "-",
  "_",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "𝐀",
  "𝐚",
  "𝟎",
  "\uD83D",
  "\uDE00",
  "ﬁ",
];

const ADVERSARIAL = [
  "a".repeat(5000),
  "=".repeat(5000),
  "====\n".repeat(500),
  `${"A".repeat(4000)}==`,
  "ACGT".repeat(1000),
  " ".repeat(3000),
  `${" ".repeat(3000)}x`,
  "\r\n".repeat(2000),
  "\n \n\t".repeat(500),
  "1234567890".repeat(300),
  "'s'''t're's".repeat(200),
  "😀".repeat(1000),
  "\uD83D".repeat(500),
  "e\u0301".repeat(800),
  "\u0301".repeat(800),
  "ÉÉÉÉéééé".repeat(300),
  "ʰʰʰa".repeat(300),
  "///\n\n//".repeat(300),
  "\uFEFF".repeat(300),
];

describe("preTokenize (E-T8)", () => {
  for (const encoding of ENCODINGS) {
    it(`[E-T8] splits strings of every character class exactly as the u-flag split pattern does (${encoding})`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((pieces) => pieces.join("")),
          (text) => {
            expect(preTokenize(encoding, text)).toEqual(byRegex(encoding, text));
          },
        ),
        { numRuns: 3000 },
      );
    });

    it(`[E-T8] splits random UTF-16 strings, lone surrogates included, as the pattern does (${encoding})`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string({ unit: "binary", maxLength: 60 }),
            fc.string({ unit: "grapheme", maxLength: 60 }),
            fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 60 }),
          ),
          (text) => {
            expect(preTokenize(encoding, text)).toEqual(byRegex(encoding, text));
          },
        ),
        { numRuns: 2000 },
      );
    });

    it(`[E-T8] splits long runs and adversarial strings as the pattern does (${encoding})`, () => {
      for (const text of ADVERSARIAL) expect(preTokenize(encoding, text)).toEqual(byRegex(encoding, text));
    });

    it(`[E-T8] splits the whole tau-bench corpus as the pattern does (${encoding})`, () => {
      const texts = allTrajectories().flatMap((trajectory) =>
        trajectory.messages.flatMap((message) => [message.content ?? "", ...(message.tool_calls ?? []).map((call) => call.function.arguments)]),
      );
      const corpus = texts.join("\n");
      expect(corpus.length).toBeGreaterThan(1_000_000);
      expect(preTokenize(encoding, corpus)).toEqual(byRegex(encoding, corpus));
    });
  }
});
