import { describe, expect, it } from "vitest";
import { deltasOfChunk, retryAfterSeconds } from "./upstream";

describe("deltasOfChunk", () => {
  it("reads choice 0's text and tool-call pieces, ignoring other choices and empty content", () => {
    const chunk = {
      choices: [
        { index: 0, delta: { content: "Hel", tool_calls: [{ index: 1, id: "call_2", type: "function", function: { name: "lookup", arguments: "" } }] } },
        { index: 1, delta: { content: "other" } },
      ],
    };
    expect(deltasOfChunk(chunk)).toEqual([
      { type: "text", text: "Hel" },
      { type: "tool-call", index: 1, id: "call_2", name: "lookup", arguments: "" },
    ]);
    expect(deltasOfChunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '{"a"' } }] } }] })).toEqual([
      { type: "tool-call", index: 1, id: null, name: null, arguments: '{"a"' },
    ]);
    expect(deltasOfChunk({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] })).toEqual([]);
    expect(deltasOfChunk({ choices: [], usage: { total_tokens: 3 } })).toEqual([]);
  });
});

describe("retryAfterSeconds", () => {
  it("reads retry-after-ms, retry-after seconds or an HTTP date", () => {
    expect(retryAfterSeconds(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }))).toBe(1.5);
    expect(retryAfterSeconds(new Headers({ "retry-after": "20" }))).toBe(20);
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterSeconds(new Headers({ "retry-after": inTen }))).toBeGreaterThanOrEqual(9);
    expect(retryAfterSeconds(new Headers())).toBeNull();
  });
});
