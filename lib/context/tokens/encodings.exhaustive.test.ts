// The exhaustive comparisons with js-tiktoken (E-T5): random strings, adversarial runs and the whole tau-bench
// corpus, token for token. They run in the full suite (`npm test`), not in `npm run test:fast`.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allTrajectories } from "../test-support/tau-bench";
import { referenceEncode } from "../test-support/reference-tokenizer";
import { TiktokenCounter } from "./counter";
import { ENCODINGS, getTextEncoder } from "./encodings";

const POOL = [
  "\uFEFF",
  "\u0085",
  "\u00A0",
  "\u2028",
  "中",
  "文字",
  "😀",
  "👍🏽",
  "👨‍👩‍👧",
  "\r\n",
  "\r",
  "\n",
  " ",
  "   ",
  "\t",
  "a",
  "Z",
  "'s",
  "'LL",
  "123",
  "4567",
  "é",
  "e\u0301",
  "<|endoftext|>",
  "ـ",
  "ア",
  "한",
  "!",
  "...",
  "//",
  "$",
  "\u200B",
];

describe("TiktokenCounter equals js-tiktoken (E-T5)", () => {
  for (const encoding of ENCODINGS) {
    const counter = new TiktokenCounter({ encoding });

    it(`[E-T5] on random Unicode strings (${encoding})`, () => {
      fc.assert(
        fc.property(fc.string({ unit: "binary", maxLength: 80 }), (text) => {
          expect(counter.encode(text)).toEqual(referenceEncode(encoding, text));
        }),
        { numRuns: 400 },
      );
    }, 60_000);

    it(`[E-T5] on strings built from byte-order marks, U+0085, CJK, emoji, CRLF and spaces (${encoding})`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...POOL), { maxLength: 40 }).map((parts) => parts.join("")),
          (text) => {
            expect(counter.countText(text)).toBe(referenceEncode(encoding, text).length);
            expect(counter.encode(text)).toEqual(referenceEncode(encoding, text));
          },
        ),
        { numRuns: 400 },
      );
    }, 60_000);

    it(`[E-T5] on lone surrogates (${encoding})`, () => {
      for (const text of ["\uD83D", "a\uD83Dz", "\uDE00x", "\uDE00\uD83D", "😀\uD83D"]) expect(counter.encode(text)).toEqual(referenceEncode(encoding, text));
    });

    it(`[E-T5] on every message of the real tau-bench trajectories (${encoding})`, () => {
      const texts = new Set<string>();
      for (const trajectory of allTrajectories()) {
        for (const message of trajectory.messages) {
          for (const text of [
            message.content,
            message.name,
            message.tool_call_id,
            ...(message.tool_calls ?? []).flatMap((call) => [call.function.name, call.function.arguments]),
          ]) {
            if (text) texts.add(text);
          }
        }
      }
      expect(texts.size).toBeGreaterThan(50);
      const mismatches = [...texts].filter((text) => counter.countText(text) !== referenceEncode(encoding, text).length);
      expect(mismatches).toEqual([]);
    }, 60_000);
  }
});

// Inputs that made the quadratic merge loop crawl, and every class the pre-tokenizer tells apart (E-T8, E-T9).
const ADVERSARIAL = [
  "a".repeat(1_000),
  "=".repeat(1_000),
  "====\n".repeat(200),
  `${"A".repeat(996)}==`,
  Array.from({ length: 1_000 }, (_, index) => "ACGT"[((index * 7919) % 13) % 4]).join(""),
  "Hello мир 世界 مرحبا שלום नमस्ते ¡Hola! Ελληνικά",
  "😀".repeat(300),
  "👨‍👩‍👧👍🏽🇫🇷".repeat(50),
  "\uD83D".repeat(100),
  "a\uDE00b\uD83D",
  "\r\n".repeat(500),
  " \r\n \t\n\u2028\u00A0".repeat(100),
  "1234567890".repeat(200),
  "٣٤٥Ⅻ½".repeat(100),
  "I'll've'd's't're'm'LL 'S don't WE'RE ''''sss",
  `${"\uFEFF".repeat(50)}\uFEFFhello`,
  `${" ".repeat(1_000)}x`,
  "e\u0301".repeat(300),
  "\u0301".repeat(300),
  "ÉCOLE école ǅungla ʰʰʰa".repeat(50),
  "///\n\n//".repeat(100),
  Array.from({ length: 40 }, (_, index) => "a".repeat(index)).join(" "),
  Array.from({ length: 40 }, (_, index) => "=".repeat(index)).join("\n"),
];

describe("getTextEncoder equals js-tiktoken (E-T5)", () => {
  for (const encoding of ENCODINGS) {
    const encoder = getTextEncoder(encoding);

    it(`[E-T5] encode() and count() on long runs, base64 of zeros, DNA, mixed scripts, emoji, surrogates, CRLF, digits, contractions (${encoding})`, () => {
      for (const text of ADVERSARIAL) {
        const reference = referenceEncode(encoding, text);
        expect(encoder.encode(text)).toEqual(reference);
        expect(encoder.count(text)).toBe(reference.length);
      }
    }, 120_000);

    it(`[E-T5] encode() and count() on the whole tau-bench corpus laid end to end (${encoding})`, () => {
      const corpus = allTrajectories()
        .flatMap((trajectory) =>
          trajectory.messages.flatMap((message) => [
            message.content ?? "",
            ...(message.tool_calls ?? []).flatMap((call) => [call.function.name, call.function.arguments]),
          ]),
        )
        .join("\n");
      const reference = referenceEncode(encoding, corpus);
      expect(encoder.count(corpus)).toBe(reference.length);
      expect(encoder.encode(corpus)).toEqual(reference);
    }, 120_000);
  }
});
