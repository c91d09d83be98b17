import { describe, expect, it } from "vitest";
import { explainCacheBreak, formatGap, systemDiff } from "./cache-break";
import type { CacheCall, CacheRules, CacheSegment, CacheTtl, SegmentSection } from "./types";

const ANTHROPIC: CacheRules = { mode: "breakpoints", minimumTokens: 1024, increment: 1, ttls: ["5m", "1h"], billsWrites: true, lookback: 20 };
const MINUTE = 60_000;

function segment(section: SegmentSection, index: number, key: string, tokens: number, extra: Partial<CacheSegment> = {}): CacheSegment {
  return { section, index, key, looseKey: key, tokens, label: section === "tools" ? key : "user", ...extra };
}

const tool = (name: string, index: number) => segment("tools", index, name, 100, { label: name });
const system = (text: string) => segment("system", 0, `system:${text}`, 1500, { text, label: "system" });
const message = (key: string, index: number, breakpoint?: CacheTtl) => segment("messages", index, key, 500, breakpoint ? { breakpoint } : {});

function call(segments: CacheSegment[], at: number | null = 0, extra: Partial<CacheCall> = {}): CacheCall {
  return { segments, at, rules: ANTHROPIC, ...extra };
}

const BASE = [tool("search", 0), tool("book", 1), system("You are a travel agent."), message("u1", 1), message("a1", 2), message("u2", 3, "5m")];
const previous = call(BASE, 0);
const explain = (current: CacheCall, read = 0, previousCached = 3700, previousTtl: CacheTtl | null = "5m") =>
  explainCacheBreak({ previous, current, previousCached, previousTtl, read });

describe("why the cache broke", () => {
  it("[CC-9] no break when the call read what the previous one left, or the previous one left nothing", () => {
    expect(explain(call([...BASE, message("a2", 4), message("u3", 5, "5m")], 30_000), 3700)).toBeNull();
    expect(explain(call(BASE, 30_000), 0, 0)).toBeNull();
  });

  it("[CC-9] an idle gap over the TTL comes first, with the gap", () => {
    expect(explain(call(BASE, 7 * MINUTE + 52_000))).toEqual({
      reason: "idle-gap",
      detail: "7 min 52 s idle: longer than the 5-minute cache lives",
      position: null,
    });
    expect(explain(call(BASE, 7 * MINUTE), 0, 3700, "1h")?.reason).not.toBe("idle-gap");
  });

  it("[CC-9] a changed system prompt, with a short diff and where it starts", () => {
    const current = call([tool("search", 0), tool("book", 1), system("You are a careful travel agent."), ...BASE.slice(3)], 30_000);
    expect(explain(current)).toEqual({
      reason: "system-changed",
      detail: expect.stringContaining('was "You are a travel agent."'),
      position: { section: "system", index: 0, tokens: 200 },
    });
    expect(systemDiff("abc def", "abc xyz")).toBe('changed at character 4: was "abc def", now "abc xyz"');
  });

  it("[CC-9] tools reordered, or changed (added, removed, redefined)", () => {
    expect(explain(call([tool("book", 0), tool("search", 1), ...BASE.slice(2)], 30_000))).toMatchObject({
      reason: "tools-reordered",
      detail: "the same tools in another order: search, book became book, search",
      position: { section: "tools", index: 0, tokens: 0 },
    });
    const changed = explain(call([tool("search", 0), tool("cancel", 1), ...BASE.slice(2)], 30_000));
    expect(changed).toMatchObject({ reason: "tools-changed", detail: "added cancel; removed book", position: { index: 1, tokens: 100 } });
    const redefined = explain(call([tool("search", 0), { ...tool("book", 1), key: "book-v2", looseKey: "book-v2" }, ...BASE.slice(2)], 30_000));
    expect(redefined).toMatchObject({ reason: "tools-changed", detail: "changed the definition of book" });
  });

  it("[CC-9] an earlier message edited, re-serialised, removed, or replaced by the agent's compaction", () => {
    const edited = explain(call([...BASE.slice(0, 3), message("u1-edited", 1), ...BASE.slice(4)], 30_000));
    expect(edited).toMatchObject({ reason: "message-edited", detail: "message 1 (user) differs from what the previous call sent", position: { tokens: 1700 } });
    const respelled = explain(call([...BASE.slice(0, 3), { ...message("u1 respaced", 1), looseKey: "u1" }, ...BASE.slice(4)], 30_000));
    expect(respelled?.detail).toContain("re-serialised");
    const removed = explain(call([...BASE.slice(0, 3), message("a1", 1), message("u2", 2, "5m")], 30_000));
    expect(removed).toMatchObject({ reason: "message-edited", detail: "1 message removed at message 1" });
    const compacted = explain(call([...BASE.slice(0, 3), message("summary", 1, "5m")], 30_000, { compacted: true }));
    expect(compacted).toMatchObject({ reason: "message-edited", detail: expect.stringContaining("compacted"), position: { section: "messages", index: 1 } });
  });

  it("[CC-9] a prefix under the minimum, a mark out of reach, else unexplained", () => {
    const short = call([message("x", 0, "5m")], 30_000);
    expect(explainCacheBreak({ previous: call([message("x", 0)]), current: short, previousCached: 2000, previousTtl: "5m", read: 0 })).toMatchObject({
      reason: "under-minimum",
      detail: "the cacheable prefix is 500 tokens; the model caches from 1,024",
    });
    const longer = [...BASE.slice(0, 5), message("u2", 3), ...Array.from({ length: 22 }, (_, index) => message(`m${index}`, 4 + index))];
    longer[longer.length - 1] = { ...longer[longer.length - 1], breakpoint: "5m" };
    expect(explain(call(longer, 30_000))).toMatchObject({ reason: "breakpoint-moved", position: { section: "messages", index: 4 } });
    expect(explain(call([...BASE, message("a2", 4), message("u3", 5, "5m")], 30_000), 1200)).toMatchObject({ reason: "unexplained", position: null });
  });

  it("[CC-9] gaps read as people say them", () => {
    expect([formatGap(40_000), formatGap(6 * MINUTE), formatGap(472_000), formatGap(63 * MINUTE), formatGap(120 * MINUTE)]).toEqual([
      "40 s",
      "6 min",
      "7 min 52 s",
      "1 h 3 min",
      "2 h",
    ]);
  });
});
