import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "../messages";
import { cacheableTokens, createCacheState, predictCall, predictSession, prefixHashes, prefixHashWork } from "./cache-model";
import { requestSegments, withUnseenPrefix } from "./segments";
import type { CacheCall, CacheRules, CacheSegment, CacheTtl } from "./types";

const ANTHROPIC: CacheRules = { mode: "breakpoints", minimumTokens: 1024, increment: 1, ttls: ["5m", "1h"], billsWrites: true, lookback: 20 };
const OPENAI: CacheRules = { mode: "automatic", minimumTokens: 1024, increment: 128, ttls: ["5m"], billsWrites: false };
const MINUTE = 60_000;

function segment(key: string, tokens: number, breakpoint?: CacheTtl): CacheSegment {
  return { section: "messages", index: 0, key, looseKey: key, tokens, label: "user", ...(breakpoint ? { breakpoint } : {}) };
}

/** A request of `keys` (each `tokens` long), marked where `marks` says. */
function request(keys: string[], tokens: number, marks: Record<number, CacheTtl> = {}): CacheSegment[] {
  return keys.map((key, index) => segment(key, tokens, marks[index]));
}

const call = (segments: CacheSegment[], at: number | null, rules = ANTHROPIC): CacheCall => ({ segments, at, rules });

describe("prompt-cache model", () => {
  it("[CC-7] a marked request writes its prefix; the next one reads it back from up to 20 segments before its own mark and writes the rest", () => {
    const state = createCacheState();
    const first = predictCall(call(request(["s", "u1"], 1000, { 1: "5m" }), 0), state);
    expect(first).toMatchObject({ promptTokens: 2000, cacheRead: 0, cacheWrite5m: 2000, cacheWrite1h: 0, input: 0, cachedAfter: 2000, ttl: "5m" });
    const second = predictCall(call(request(["s", "u1", "a1", "u2"], 1000, { 3: "5m" }), 30_000), state);
    expect(second).toMatchObject({ cacheRead: 2000, cacheWrite5m: 2000, input: 0, cachedAfter: 4000 });
    const far = ["s", "u1", ...Array.from({ length: 21 }, (_, index) => `m${index}`)];
    expect(predictCall(call(request(far, 10, { [far.length - 1]: "5m" }), 60_000), state).cacheRead).toBe(0);
  });

  it("[CC-7] a prefix under the minimum is neither written nor read; unmarked requests cache nothing", () => {
    const state = createCacheState();
    expect(predictCall(call(request(["s"], 1000, { 0: "5m" }), 0), state)).toMatchObject({ cacheWrite5m: 0, cachedAfter: 0, input: 1000, ttl: null });
    expect(predictCall(call(request(["s", "u"], 1000, { 0: "5m" }), 1), state).cacheRead).toBe(0);
    expect(predictCall(call(request(["s", "u"], 1000), 2), state)).toMatchObject({ cacheRead: 0, cacheWrite5m: 0, input: 2000 });
    // A mark past the minimum writes what the short mark before it could not.
    expect(predictCall(call(request(["s", "u"], 1000, { 0: "5m", 1: "5m" }), 3), state)).toMatchObject({ cacheWrite5m: 2000 });
  });

  it("[CC-7] 1-hour and 5-minute marks: each part is written at the TTL of the mark that ends it, and expires on its own clock", () => {
    const state = createCacheState();
    const first = predictCall(call(request(["s", "u1"], 1500, { 0: "1h", 1: "5m" }), 0), state);
    expect(first).toMatchObject({ cacheWrite1h: 1500, cacheWrite5m: 1500, ttl: "5m" });
    const later = predictCall(call(request(["s", "u1", "a1", "u2"], 1500, { 0: "1h", 3: "5m" }), 6 * MINUTE), state);
    expect(later).toMatchObject({ cacheRead: 1500, cacheWrite5m: 4500 });
  });

  it("[CC-7] a read refreshes the TTL: calls 4 minutes apart keep a 5-minute cache warm; 5 minutes and a second idle lose it", () => {
    const state = createCacheState();
    const base = ["s", "u1"];
    predictCall(call(request(base, 1000, { 1: "5m" }), 0), state);
    expect(predictCall(call(request(base, 1000, { 1: "5m" }), 4 * MINUTE), state).cacheRead).toBe(2000);
    expect(predictCall(call(request(base, 1000, { 1: "5m" }), 8 * MINUTE), state).cacheRead).toBe(2000);
    expect(predictCall(call(request(base, 1000, { 1: "5m" }), 13 * MINUTE + 1000), state).cacheRead).toBe(0);
    // Without times, nothing expires.
    expect(predictSession([call(request(base, 1000, { 1: "5m" }), null), call(request(base, 1000, { 1: "5m" }), null)])[1].cacheRead).toBe(2000);
  });

  it("[CC-8] an automatic cache keeps every prompt from 1,024 tokens, reads in 128-token steps past it and bills no writes", () => {
    expect(cacheableTokens(1023, OPENAI)).toBe(0);
    expect(cacheableTokens(1024, OPENAI)).toBe(1024);
    expect(cacheableTokens(1300, OPENAI)).toBe(1280);
    const state = createCacheState();
    expect(predictCall(call(request(["t", "s"], 400), 0, OPENAI), state)).toMatchObject({ cacheRead: 0, cachedAfter: 0, input: 800 });
    const first = predictCall(call(request(["t", "s", "u1"], 450), 0, OPENAI), state);
    expect(first).toMatchObject({ cacheRead: 0, cacheWrite5m: 0, input: 1350, cachedAfter: 1280, ttl: "5m" });
    const second = predictCall(call(request(["t", "s", "u1", "a1", "u2"], 450), MINUTE, OPENAI), state);
    expect(second).toMatchObject({ cacheRead: 1280, input: 2250 - 1280, cacheWrite5m: 0 });
    expect(predictCall(call(request(["t", "s", "u1", "a1", "u2"], 450), 7 * MINUTE, OPENAI), state).cacheRead).toBe(0);
  });

  it("[CC-6] a request is its tools then its messages; keys ignore cache marks; the same content re-serialised keeps its loose key only", () => {
    const tools: ToolDefinition[] = [{ type: "function", function: { name: "search" }, cache_control: { type: "ephemeral", ttl: "1h" } }];
    const messages: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{"a":1,"b":2}' } }] },
      { role: "tool", content: "ok", tool_call_id: "c1", parts: [{ type: "text", text: "ok", cacheControl: { type: "ephemeral" } }] },
    ];
    const options = { countMessage: (message: Message) => (message.content ?? "").length + 1, countTools: () => 7 };
    const segments = requestSegments(messages, tools, options);
    expect(segments.map((item) => [item.section, item.index, item.label, item.breakpoint])).toEqual([
      ["tools", 0, "search", "1h"],
      ["system", 0, "system", undefined],
      ["messages", 1, "assistant", undefined],
      ["messages", 2, "tool", "5m"],
    ]);
    expect(segments[1].text).toBe("Be brief.");
    const unmarked = requestSegments([messages[0], messages[1], { ...messages[2], parts: [{ type: "text", text: "ok" }] }], [], options);
    expect(unmarked[2].key).toBe(segments[3].key);
    const respaced: Message = { ...messages[1], tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: '{ "b": 2, "a": 1 }' } }] };
    const [again] = requestSegments([respaced], [], options);
    expect(again.key).not.toBe(segments[2].key);
    expect(again.looseKey).toBe(segments[2].looseKey);
  });

  it("[CC-6] a log's request is taken as marked after its system prompt and at its end; what the provider counted beyond it leads as one segment", () => {
    const messages: Message[] = [
      { role: "system", content: "S" },
      { role: "user", content: "U" },
      { role: "assistant", content: "A" },
      { role: "user", content: "V" },
    ];
    const segments = requestSegments(messages, [], { countMessage: () => 10, countTools: () => 0, assumeBreakpoints: "1h" });
    expect(segments.map((item) => item.breakpoint ?? null)).toEqual(["1h", null, null, "1h"]);
    const withUnseen = withUnseenPrefix(segments, 25_000);
    expect(withUnseen[0]).toMatchObject({ section: "unseen", tokens: 25_000, breakpoint: "1h" });
    expect(withUnseen.slice(1)).toEqual(segments);
    expect(withUnseenPrefix(segments, 0)).toEqual(segments);
  });

  it("[CC-14] a request's prefix hashes start from the last request's: only what it adds is hashed, and the hashes are the same as from scratch", () => {
    const first = request(["s", "u1", "a1"], 10);
    const known = { segments: first, hashes: prefixHashes(first) };
    for (const keys of [
      ["s", "u1", "a1", "u2", "a2"], // grows
      ["s", "u1", "edited", "u2"], // differs inside
      ["s"], // shorter
      ["other", "u1", "a1"], // differs at once
    ]) {
      const next = request(keys, 10);
      const before = prefixHashWork();
      const reused = prefixHashes(next, known);
      const shared = keys.findIndex((key, index) => key !== ["s", "u1", "a1"][index]);
      const common = shared === -1 ? Math.min(keys.length, 3) : shared;
      expect(prefixHashWork() - before).toBe(keys.length - common);
      expect(reused).toEqual(prefixHashes(next));
    }
    // A session's calls in order: each hashes only its new segments.
    const state = createCacheState();
    const before = prefixHashWork();
    const predicted = [2, 4, 6, 8].map((length) =>
      predictCall(call(request(["s", "u1", "a1", "u2", "a2", "u3", "a3", "u4"].slice(0, length), 600, { [length - 1]: "5m" }), length), state),
    );
    expect(prefixHashWork() - before).toBe(8);
    expect(predicted.map((prediction) => prediction.cacheRead)).toEqual([0, 1200, 2400, 3600]);
  });
});
