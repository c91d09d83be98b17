import { describe, expect, it } from "vitest";
import { findExcessiveNesting, findJsonProblem, isWellFormedText, MAX_ARRAY_LENGTH, MAX_JSON_DEPTH, MAX_STRING_LENGTH } from "./json-input";

describe("findExcessiveNesting", () => {
  it("[S7] finds nesting past the limit before anything parses it, at its offset", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    expect(findExcessiveNesting(deep)).toMatchObject({ offset: MAX_JSON_DEPTH });
    expect(findExcessiveNesting("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH))).toBeNull();
  });

  it("[S7] ignores brackets inside strings, escaped quotes included", () => {
    expect(findExcessiveNesting(JSON.stringify({ text: `${"[".repeat(500)}\\"${"{".repeat(500)}` }))).toBeNull();
  });

  it("[S7] scans 300,000 levels without recursion", () => {
    expect(findExcessiveNesting('{"a":'.repeat(300_000))).not.toBeNull();
  });

  it("[BD-3] ends a string at a raw line break, so a broken JSONL line cannot hide a deep one after it", () => {
    const text = `"unterminated\n${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    expect(findExcessiveNesting(text)).toMatchObject({ offset: text.indexOf("\n") + 1 + MAX_JSON_DEPTH });
  });

  it("[S7] [RL-ST1] skips strings by searching for their end and finds what a character-by-character scan finds", () => {
    // The plain scan the search replaces: a backslash escapes the next character; a quote or a raw line break ends a string.
    const reference = (text: string, limit: number): number | null => {
      let depth = 0;
      let inString = false;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (inString) {
          if (code === 92) index += 1;
          else if (code === 34 || code === 10) inString = false;
        } else if (code === 34) inString = true;
        else if (code === 123 || code === 91) {
          depth += 1;
          if (depth > limit) return index;
        } else if (code === 125 || code === 93) depth -= 1;
      }
      return null;
    };
    const alphabet = ['"', "\\", "\n", "[", "]", "{", "}", "a"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 20_000; trial += 1) {
      let text = "";
      for (let length = Math.floor(random() * 24); length > 0; length -= 1) text += alphabet[Math.floor(random() * alphabet.length)];
      expect(findExcessiveNesting(text, 2)?.offset ?? null, JSON.stringify(text)).toBe(reference(text, 2));
    }
  });
});

describe("findJsonProblem", () => {
  it("[S7] names the field holding a lone surrogate", () => {
    const value = JSON.parse('{"messages":[{"role":"user","content":"ok"},{"role":"user","content":"bad \\ud83d"}]}');
    expect(findJsonProblem(value)).toMatchObject({ path: "messages[1].content" });
  });

  it("[S7] accepts whole astral characters and finds a lone low surrogate and one in a key", () => {
    expect(findJsonProblem({ text: "emoji 😀 ok" })).toBeNull();
    expect(findJsonProblem(["\udc00x"])).toMatchObject({ path: "[0]" });
    expect(findJsonProblem({ metadata: { "k\ud800": 1 } })).toMatchObject({ path: "metadata" });
    expect(isWellFormedText("a\ud83d\ude00b")).toBe(true);
    expect(isWellFormedText("\ude00\ud83d")).toBe(false);
  });
});

describe("findJsonProblem: the limits of every JSON input", () => {
  it("[BD-3] refuses U+0000 in a string or a key, naming where", () => {
    expect(findJsonProblem({ messages: [{ role: "user", content: "a\u0000b" }] })).toMatchObject({
      path: "messages[0].content",
      message: expect.stringContaining("U+0000"),
    });
    expect(findJsonProblem({ metadata: { "k\u0000": 1 } })).toMatchObject({ path: "metadata", message: expect.stringContaining("has a key that") });
    expect(findJsonProblem({ text: "tab\tand newline\n are fine" })).toBeNull();
  });

  it("[BD-3] refuses strings and arrays past their limits and numbers that are not finite", () => {
    expect(findJsonProblem({ big: "x".repeat(MAX_STRING_LENGTH + 1) })).toMatchObject({ path: "big", message: expect.stringContaining("character limit") });
    expect(findJsonProblem({ list: new Array(MAX_ARRAY_LENGTH + 1).fill(0) })).toMatchObject({
      path: "list",
      message: expect.stringContaining("element limit"),
    });
    expect(findJsonProblem({ list: new Array(MAX_ARRAY_LENGTH).fill(0) })).toBeNull();
    expect(findJsonProblem(JSON.parse('{"n":[1e999]}'))).toMatchObject({ path: "n[0]" });
  });

  it("[BD-3] refuses a value nested past the depth limit without recursion, at any depth", () => {
    let deep: unknown = "bottom";
    for (let level = 0; level < 50_000; level += 1) deep = { a: deep };
    expect(findJsonProblem(deep)).toMatchObject({ message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`) });
    let shallow: unknown = 1;
    for (let level = 0; level < MAX_JSON_DEPTH; level += 1) shallow = [shallow];
    expect(findJsonProblem(shallow)).toBeNull();
  });
});
