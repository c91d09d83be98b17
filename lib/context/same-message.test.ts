import { describe, expect, it } from "vitest";
import type { Message } from "./messages";
import { sameJson } from "./hash";
import { messageFingerprint, sameMessage } from "./same-message";

const call = (args: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: args } }],
});

describe("sameMessage", () => {
  it("[E-M3][F-4] compares tool arguments as JSON values", () => {
    expect(sameMessage(call('{"a": 1, "b": [2]}'), call('{"b":[2],"a":1}'))).toBe(true);
    expect(sameMessage(call('{"a": 1}'), call('{"a": 2}'))).toBe(false);
  });

  it("[E-M3][F-4] takes developer as system, null as empty assistant text, and ignores cache marks and extras", () => {
    expect(sameMessage({ role: "system", content: "x", extras: { openai: { role: "developer" } } }, { role: "system", content: "x" })).toBe(true);
    expect(sameMessage({ role: "assistant", content: "" }, { role: "assistant", content: null })).toBe(true);
    expect(sameMessage({ role: "user", content: "x", cache_control: { type: "ephemeral" } }, { role: "user", content: "x" })).toBe(true);
  });

  it("[E-M3][F-4] tells apart messages that differ in an image, a reasoning block, the answered call or the name", () => {
    const image = (url: string): Message => ({ role: "user", content: "", parts: [{ type: "image", source: { type: "url", url } }] });
    expect(sameMessage(image("a"), image("b"))).toBe(false);
    expect(
      sameMessage(
        {
          role: "assistant",
          content: "x",
          parts: [
            { type: "reasoning", text: "r" },
            { type: "text", text: "x" },
          ],
        },
        { role: "assistant", content: "x" },
      ),
    ).toBe(false);
    expect(sameMessage({ role: "tool", content: "x", tool_call_id: "a" }, { role: "tool", content: "x", tool_call_id: "b" })).toBe(false);
    expect(sameMessage({ role: "user", content: "x", name: "a" }, { role: "user", content: "x" })).toBe(false);
  });

  it("[E-M3][F-4] gives equal fingerprints exactly to the same messages", () => {
    expect(messageFingerprint(call('{"a": 1}'))).toBe(messageFingerprint(call('{"a":1}')));
    expect(messageFingerprint(call('{"a": 1}'))).not.toBe(messageFingerprint(call('{"a": 2}')));
  });
});

describe("sameJson", () => {
  it("[E-M3] other values compare by their JSON text, key order included", () => {
    expect(sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson(null, undefined)).toBe(false);
  });
});
