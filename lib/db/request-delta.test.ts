import { describe, expect, it } from "vitest";
import { decodeChain, decodeRequest, encodeRequest, type RequestDelta } from "./request-delta";

const TOOLS = [{ type: "function", function: { name: "lookup", description: "x".repeat(2000), parameters: { type: "object", properties: {} } } }];

/** Call k of one growing chat conversation: two new turns per call. */
function chatCall(k: number): Record<string, unknown> {
  const messages: unknown[] = [{ role: "system", content: "You are terse." }];
  for (let turn = 1; turn <= k; turn += 1) {
    messages.push({ role: "user", content: `question ${turn} ${"q".repeat(200)}` });
    if (turn < k) messages.push({ role: "assistant", content: `answer ${turn} ${"a".repeat(200)}` });
  }
  return { model: "gpt-4o", messages, tools: TOOLS, temperature: 0.2, metadata: { call: k } };
}

describe("request deltas", () => {
  it("[PX-D6.1] [PX-D6.2] a request is stored as its new items and changed fields, and decodes exactly, key order included", () => {
    const base = chatCall(3);
    const request = { temperature: 0.2, ...chatCall(4), extra: { unknown: [1, 2] } };
    const delta = encodeRequest(base, request) as RequestDelta;
    expect(delta.history).toBe("messages");
    expect(delta.kept).toBe(6);
    expect(delta.body.messages).toEqual([
      { role: "assistant", content: `answer 3 ${"a".repeat(200)}` },
      { role: "user", content: `question 4 ${"q".repeat(200)}` },
    ]);
    expect(delta.same).toEqual(["temperature", "model", "tools"]);
    expect(JSON.stringify(delta)).not.toContain("description");
    const decoded = decodeRequest(base, delta);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(request));
  });

  it("[PX-D6.1] a history that forks keeps only the shared items; Responses `input` is a history too", () => {
    const base = {
      model: "gpt-4o",
      input: [
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
      ],
    };
    const request = {
      model: "gpt-4o",
      input: [
        { role: "user", content: "a" },
        { role: "assistant", content: "edited" },
        { role: "user", content: "c" },
      ],
    };
    const delta = encodeRequest(base, request) as RequestDelta;
    expect(delta.kept).toBe(1);
    expect(decodeRequest(base, delta)).toEqual(request);
  });

  it("[PX-D6.1] no delta without a shared first item, a history field in common, or JSON objects", () => {
    expect(encodeRequest({ messages: [{ role: "user", content: "a" }] }, { messages: [{ role: "user", content: "b" }] })).toBeNull();
    expect(encodeRequest({ input: [1] }, { messages: [1] })).toBeNull();
    expect(encodeRequest("text", { messages: [1] })).toBeNull();
    expect(encodeRequest({ messages: [1] }, [1])).toBeNull();
  });

  it("[PX-D6.7] a chat request whose system prompt changed (a clock in it) stores the new prompt and its new turns, not its history again", () => {
    const withClock = (k: number, minute: number) => {
      const request = chatCall(k);
      const messages = request.messages as Record<string, unknown>[];
      return { ...request, messages: [{ role: "system", content: `You are terse. Current time: 20:${minute}` }, ...messages.slice(1)] };
    };
    const calls = [withClock(1, 10), withClock(2, 11), withClock(3, 12), withClock(4, 12)];
    const deltas = calls.slice(1).map((call, index) => encodeRequest(calls[index], call) as RequestDelta);
    expect(deltas.map((delta) => delta.kept)).toEqual([2, 4, 6]);
    expect(deltas.map((delta) => delta.head)).toEqual([
      [{ role: "system", content: "You are terse. Current time: 20:11" }],
      [{ role: "system", content: "You are terse. Current time: 20:12" }],
      undefined,
    ]);
    expect(JSON.stringify(deltas[1])).not.toContain("question 1");
    for (let k = 0; k < calls.length; k += 1) expect(JSON.stringify(decodeChain(calls[0], deltas.slice(0, k)))).toBe(JSON.stringify(calls[k]));
    // Only a prompt of as many messages stands in: a system message added in front is no delta of the history.
    expect(encodeRequest(calls[0], { ...calls[1], messages: [{ role: "developer", content: "new" }, ...(calls[1].messages as unknown[])] })).toBeNull();
  });

  it("[PX-D6.2] decoding refuses a base shorter than the delta's kept items", () => {
    const delta = encodeRequest({ messages: [1, 2] }, { messages: [1, 2, 3] }) as RequestDelta;
    expect(() => decodeRequest({ messages: [1] }, delta)).toThrow(/fewer than 2/);
  });

  it("[PX-D6.3] 200 calls of a growing conversation store bytes bounded by their new turns and read back as the requests sent", () => {
    const calls = Array.from({ length: 200 }, (_, index) => chatCall(index + 1));
    const deltas: RequestDelta[] = [];
    let storedBytes = JSON.stringify(calls[0]).length;
    let wholeBytes = storedBytes;
    for (let k = 1; k < calls.length; k += 1) {
      const delta = encodeRequest(calls[k - 1], calls[k]) as RequestDelta;
      deltas.push(delta);
      const bytes = JSON.stringify(delta).length;
      const newTurns = JSON.stringify((calls[k].messages as unknown[]).slice(-2)).length;
      expect(bytes).toBeLessThanOrEqual(newTurns + 200);
      storedBytes += bytes;
      wholeBytes += JSON.stringify(calls[k]).length;
    }
    for (let k = 0; k < calls.length; k += 1) expect(JSON.stringify(decodeChain(calls[0], deltas.slice(0, k)))).toBe(JSON.stringify(calls[k]));
    expect(storedBytes * 50).toBeLessThan(wholeBytes);
  });
});
