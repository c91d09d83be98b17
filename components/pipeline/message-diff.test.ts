import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/light";
import { buildDiffRows } from "./diff-rows";
import { diffMessages } from "./message-diff";

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const history = (count: number) => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`)));

describe("diffMessages", () => {
  it("aligns unchanged messages by identity", () => {
    const before = history(6);
    const { entries, counts } = diffMessages(before, [...before]);
    expect(counts).toEqual({ unchanged: 6, removed: 0, added: 0, replaced: 0 });
    expect(entries[5]).toEqual({ type: "unchanged", before: 5, after: 5 });
  });

  it("finds dropped messages as removed, named by the step's effect", () => {
    const before = history(6);
    const { entries, counts } = diffMessages(before, before.slice(4), [{ kind: "dropped", before: [[0, 4]], after: [] }]);
    expect(counts).toEqual({ unchanged: 2, removed: 4, added: 0, replaced: 0 });
    expect(entries[0]).toEqual({ type: "removed", before: 0, effect: "dropped" });
    expect(entries[4]).toEqual({ type: "unchanged", before: 4, after: 0 });
  });

  it("pairs a one-for-one replacement (an offloaded message) as replaced", () => {
    const before = history(4);
    const after = [...before];
    after[1] = assistant("[[OFFLOADED: handle=off_0123456789ab]]");
    const { entries, counts } = diffMessages(before, after, [{ kind: "offloaded", before: [[1, 2]], after: [[1, 2]], handle: "off_0123456789ab" }]);
    expect(counts).toEqual({ unchanged: 3, removed: 0, added: 0, replaced: 1 });
    expect(entries[1]).toEqual({ type: "replaced", before: 1, after: 1, effect: "offloaded" });
  });

  it("shows a many-to-one replacement (a compressed chain) as removed plus added, in place", () => {
    const call: Message = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: "{}" } }] };
    const result: Message = { role: "tool", content: "found", tool_call_id: "call_1" };
    const before = [user("find it"), call, result, assistant("done")];
    const summary = assistant("[Tool chain summary] search found it");
    const { entries, counts } = diffMessages(before, [before[0], summary, before[3]], [{ kind: "compressed", before: [[1, 3]], after: [[1, 2]] }]);
    expect(counts).toEqual({ unchanged: 2, removed: 2, added: 1, replaced: 0 });
    expect(entries.map((entry) => entry.type)).toEqual(["unchanged", "removed", "removed", "added", "unchanged"]);
  });

  it("pairs equal numbers of changed messages positionally when no effects are given", () => {
    const before = history(3);
    const { counts } = diffMessages(before, [before[0], assistant("other"), before[2]]);
    expect(counts.replaced).toBe(1);
  });

  it("aligns histories that crossed a structured clone by content", () => {
    const before = history(8);
    const after = JSON.parse(JSON.stringify(before.slice(2))) as Message[];
    const { counts } = diffMessages(before, after);
    expect(counts).toEqual({ unchanged: 6, removed: 2, added: 0, replaced: 0 });
  });

  it("diffs 10,000 cloned messages quickly", () => {
    const before = history(10_000);
    const after = JSON.parse(JSON.stringify(before)) as Message[];
    after[5_000] = user("changed");
    const started = performance.now();
    const { counts } = diffMessages(before, after);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(counts).toEqual({ unchanged: 9_999, removed: 0, added: 0, replaced: 1 });
  });
});

describe("buildDiffRows", () => {
  it("folds unchanged runs, keeping one message of context on each side of a change", () => {
    const before = history(10_000);
    const after = [...before];
    after[5_000] = user("changed");
    const rows = buildDiffRows(diffMessages(before, after).entries);
    expect(rows).toEqual([
      { type: "folded", kind: "unchanged", from: 0, count: 4_999 },
      { type: "entry", index: 4_999 },
      { type: "entry", index: 5_000 },
      { type: "entry", index: 5_001 },
      { type: "folded", kind: "unchanged", from: 5_002, count: 4_998 },
    ]);
  });

  it("folds long removed runs after their first messages, and unfolds what was expanded", () => {
    const before = history(100);
    const { entries } = diffMessages(before, before.slice(90));
    expect(buildDiffRows(entries).slice(0, 4)).toEqual([
      { type: "entry", index: 0 },
      { type: "entry", index: 1 },
      { type: "entry", index: 2 },
      { type: "folded", kind: "removed", from: 3, count: 87 },
    ]);
    expect(buildDiffRows(entries, { expanded: new Set([3]) }).filter((row) => row.type === "entry")).toHaveLength(91);
  });
});
