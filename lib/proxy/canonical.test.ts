import { describe, expect, it } from "vitest";
import { messageFingerprint, toCanonical, toCanonicalMessages, toWire } from "./canonical";
import { ProxyRequestError } from "./errors";

const fingerprint = (raw: unknown) => messageFingerprint(toCanonical(raw, 0).message);

describe("toCanonical", () => {
  it("keeps string content and drops nothing the canonical message holds", () => {
    expect(toCanonical({ role: "user", content: "hi", name: "ana" }, 0)).toEqual({ message: { role: "user", content: "hi", name: "ana" } });
    const call = { id: "call_1", type: "function", function: { name: "search", arguments: '{"q":"x"}' } };
    expect(toCanonical({ role: "assistant", content: null, tool_calls: [call] }, 0).message).toEqual({ role: "assistant", content: null, tool_calls: [call] });
    expect(toCanonical({ role: "tool", content: "42", tool_call_id: "call_1" }, 0).message).toEqual({ role: "tool", content: "42", tool_call_id: "call_1" });
  });

  it("joins content parts with placeholders and keeps the agent's wire message", () => {
    const raw = { role: "user", content: [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "data:..." } }] };
    expect(toCanonical(raw, 0)).toEqual({ message: { role: "user", content: "look\n[image]" }, wire: raw });
  });

  it("reads developer as system, legacy function_call as a tool call, object arguments as JSON text", () => {
    expect(toCanonical({ role: "developer", content: "rules" }, 0).message).toEqual({ role: "system", content: "rules" });
    const legacy = toCanonical({ role: "assistant", content: null, function_call: { name: "f", arguments: "{}" } }, 4).message;
    expect(legacy.tool_calls).toEqual([{ id: "legacy_call_4", type: "function", function: { name: "f", arguments: "{}" } }]);
    const objectArguments = toCanonical({ role: "assistant", tool_calls: [{ id: "c", function: { name: "f", arguments: { a: 1 } } }] }, 0).message;
    expect(objectArguments.tool_calls?.[0].function.arguments).toBe('{"a":1}');
  });

  it("names the message and field it cannot read", () => {
    expect(() => toCanonicalMessages([{ role: "user", content: "a" }, { role: "robot", content: "b" }])).toThrow(/messages\[1\]/);
    const error = (() => {
      try {
        toCanonical({ role: "tool", content: "x" }, 2);
      } catch (caught) {
        return caught;
      }
    })();
    expect(ProxyRequestError.isInstance(error) && error.param).toBe("messages[2].tool_call_id");
  });

  it("round-trips through toWire", () => {
    const message = { role: "assistant" as const, content: null, tool_calls: [{ id: "c", type: "function" as const, function: { name: "f", arguments: "{}" } }] };
    expect(toCanonical(toWire(message), 0).message).toEqual(message);
  });
});

describe("messageFingerprint", () => {
  it("is the same for content parts and the same text as a string", () => {
    expect(fingerprint({ role: "user", content: [{ type: "text", text: "hi" }] })).toBe(fingerprint({ role: "user", content: "hi" }));
  });

  it("treats null, absent and empty assistant content alike", () => {
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } };
    const prints = [
      fingerprint({ role: "assistant", content: null, tool_calls: [call] }),
      fingerprint({ role: "assistant", tool_calls: [call] }),
      fingerprint({ role: "assistant", content: "", tool_calls: [call] }),
    ];
    expect(new Set(prints).size).toBe(1);
    expect(fingerprint({ role: "assistant", content: "", tool_calls: [] })).toBe(fingerprint({ role: "assistant", content: null }));
  });

  it("compares tool arguments as JSON: spacing and key order do not matter, values do", () => {
    const withArguments = (text: string) => fingerprint({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: text } }] });
    expect(withArguments('{"a": 1, "b": [1, 2]}')).toBe(withArguments('{"b":[1,2],"a":1}'));
    expect(withArguments('{"a":1}')).not.toBe(withArguments('{"a":2}'));
    expect(withArguments("not json")).toBe(withArguments("not json"));
  });

  it("tells apart role, content, tool_call_id and name", () => {
    const base = fingerprint({ role: "tool", content: "1", tool_call_id: "a" });
    expect(fingerprint({ role: "tool", content: "1", tool_call_id: "b" })).not.toBe(base);
    expect(fingerprint({ role: "tool", content: "2", tool_call_id: "a" })).not.toBe(base);
    expect(fingerprint({ role: "user", content: "x", name: "ana" })).not.toBe(fingerprint({ role: "user", content: "x" }));
    expect(fingerprint({ role: "user", content: "x", name: "" })).toBe(fingerprint({ role: "user", content: "x" }));
    expect(fingerprint({ role: "system", content: "x" })).not.toBe(fingerprint({ role: "user", content: "x" }));
  });
});
