import { describe, expect, it } from "vitest";
import { findExcessiveNesting, findLoneSurrogate, isWellFormedText, MAX_JSON_DEPTH } from "./json-input";

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
});

describe("findLoneSurrogate", () => {
  it("[S7] names the field holding a lone surrogate", () => {
    const value = JSON.parse('{"messages":[{"role":"user","content":"ok"},{"role":"user","content":"bad \\ud83d"}]}');
    expect(findLoneSurrogate(value)).toMatchObject({ path: "messages[1].content" });
  });

  it("[S7] accepts whole astral characters and finds a lone low surrogate and one in a key", () => {
    expect(findLoneSurrogate({ text: "emoji 😀 ok" })).toBeNull();
    expect(findLoneSurrogate(["\udc00x"])).toMatchObject({ path: "[0]" });
    expect(findLoneSurrogate({ metadata: { "k\ud800": 1 } })).toMatchObject({ path: "metadata" });
    expect(isWellFormedText("a\ud83d\ude00b")).toBe(true);
    expect(isWellFormedText("\ude00\ud83d")).toBe(false);
  });
});
