import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { LineIndex, locatePaths } from "./locate";

const text = [
  "{",
  '  "messages": [',
  '    {"role": "user", "content": "a \\"quoted\\" ]} text"},',
  '    {"role": "tool",',
  '     "content": {"nested": [1, {"deep": true}]}}',
  "  ],",
  '  "we\\"ird": 1',
  "}",
].join("\n");
const lines = new LineIndex(text);
const lineOf = (path: (string | number)[]) => lines.at(locatePaths(text, [path])[0]);

describe("locatePaths", () => {
  it("finds where a message starts", () => {
    expect(lineOf(["messages", 1])).toEqual({ line: 4, column: 5 });
  });

  it("skips strings holding brackets and escaped quotes", () => {
    expect(lineOf(["messages", 1, "content", "nested", 1, "deep"])).toEqual({ line: 5, column: 41 });
  });

  it("falls back to the deepest existing value for a missing key or index", () => {
    expect(lineOf(["messages", 1, "tool_call_id"])).toEqual({ line: 4, column: 5 });
    expect(lineOf(["messages", 7])).toEqual({ line: 2, column: 15 });
  });

  it("matches keys with escapes", () => {
    expect(lineOf(['we"ird'])).toEqual({ line: 7, column: 14 });
  });

  it("locates many paths in one scan, in the order asked", () => {
    const offsets = locatePaths(text, [["messages", 1], ["messages", 0], []]);
    expect(offsets.map((offset) => lines.at(offset).line)).toEqual([4, 3, 1]);
  });

  it("starts at an offset, for one JSONL record", () => {
    const jsonl = '{"role":"user"}\n{"messages":[{"role":"user"},{"role":"x"}]}';
    expect(locatePaths(jsonl, [["messages", 1]], 16)).toEqual([45]);
  });

  it("finds a late trajectory in a large file", () => {
    const sample = readFixture("tau-bench-airline-sample.json");
    const sampleLines = new LineIndex(sample);
    const [offset] = locatePaths(sample, [[5, "traj", 3]]);
    expect(sample.slice(offset, offset + 1)).toBe("{");
    expect(sample.split("\n")[sampleLines.at(offset).line].trim()).toBe('"role": "user",');
  });
});

describe("LineIndex", () => {
  it("gives 1-based lines and columns", () => {
    const index = new LineIndex("ab\ncd\r\nef");
    expect([0, 1, 3, 7, 8].map((offset) => index.at(offset))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 2 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 3, column: 2 },
    ]);
  });
});
