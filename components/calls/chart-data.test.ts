import { describe, expect, it } from "vitest";
import { layoutCallChart } from "./chart-data";
import { callSummary, rateLimitedCall } from "./test-calls";

describe("layoutCallChart", () => {
  it("[CA-4] stacks system, tools, history and new turns from the bottom, scaled to the tallest call", () => {
    const calls = [
      callSummary("a", { tokens: { encoding: "o200k_base", exact: true, system: 100, tools: 50, history: 0, new: 50, total: 200 } }),
      callSummary("b", { tokens: { encoding: "o200k_base", exact: true, system: 100, tools: 50, history: 50, new: 200, total: 400 } }),
    ];
    const layout = layoutCallChart(calls, { height: 100, barWidth: 10, gap: 2 });
    expect(layout.max).toBe(400);
    expect(layout.width).toBe(2 + 2 * 12);
    const [first, second] = layout.bars;
    expect(first.segments.map((segment) => segment.key)).toEqual(["system", "tools", "new"]);
    expect(second.segments.map((segment) => [segment.key, segment.y, segment.height])).toEqual([
      ["system", 75, 25],
      ["tools", 62.5, 12.5],
      ["history", 50, 12.5],
      ["new", 0, 50],
    ]);
    expect(first.segments.reduce((sum, segment) => sum + segment.height, 0)).toBe(50);
    expect([first.x, second.x, first.number, second.number]).toEqual([2, 14, 1, 2]);
  });

  it("keeps a bar for a failed call and one whose body was not counted, numbered from the page's first call", () => {
    const layout = layoutCallChart([rateLimitedCall("a"), callSummary("b", { tokens: null })], { firstNumber: 5 });
    expect(layout.bars.map((bar) => [bar.number, bar.failed, bar.segments.length])).toEqual([
      [5, true, 3],
      [6, false, 0],
    ]);
    expect(layoutCallChart([]).bars).toEqual([]);
  });
});
