import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countCharacters, exceedsCharacters, firstCharacters } from "./text";

describe("code-point text helpers", () => {
  it("[E-O1] count characters as code points", () => {
    expect(countCharacters("")).toBe(0);
    expect(countCharacters("abc")).toBe(3);
    expect(countCharacters("😀😀")).toBe(2);
    expect(countCharacters("e\u0301")).toBe(2);
    expect(exceedsCharacters("😀😀", 2)).toBe(false);
    expect(exceedsCharacters("😀😀😀", 2)).toBe(true);
  });

  it("[E-O3] cut after whole characters only", () => {
    expect(firstCharacters("a😀b", 2)).toBe("a😀");
    expect(firstCharacters("😀", 0)).toBe("");
    expect(firstCharacters("ab", 5)).toBe("ab");
  });

  it("[E-O1][E-O3] agree with Array.from on any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.nat({ max: 50 }), (text, count) => {
        const characters = Array.from(text);
        expect(countCharacters(text)).toBe(characters.length);
        expect(exceedsCharacters(text, count)).toBe(characters.length > count);
        expect(firstCharacters(text, count)).toBe(characters.slice(0, count).join(""));
      }),
    );
  });
});
