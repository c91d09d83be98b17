import { describe, expect, it } from "vitest";
import { branchNode } from "@/components/branches/test-branches";
import { failedCallsByPosition } from "./failed-markers";
import { callSummary, rateLimitedCall } from "./test-calls";

describe("failedCallsByPosition", () => {
  const fork = branchNode("fork", { length: 6, forkPosition: 3 });
  const tree = [branchNode("main", { length: 8, children: [fork] })];

  it("[CA-3] places the branch's failed calls at the position they were made, answered calls not at all", () => {
    const calls = [
      rateLimitedCall("a", { requestMessages: 2 }),
      rateLimitedCall("b", { requestMessages: 2, retries: 1 }),
      callSummary("c", { requestMessages: 2 }),
      rateLimitedCall("d", { requestMessages: 8 }),
    ];
    const markers = failedCallsByPosition(calls, "main", tree);
    expect([...markers].map(([position, list]) => [position, list.map((call) => call.id)])).toEqual([
      [2, ["a", "b"]],
      [8, ["d"]],
    ]);
  });

  it("shows an ancestor's failed call on a fork only within the history the fork inherits", () => {
    const calls = [
      rateLimitedCall("early", { requestMessages: 3 }),
      rateLimitedCall("late", { requestMessages: 5 }),
      rateLimitedCall("own", { branchId: "fork", requestMessages: 6 }),
      rateLimitedCall("other", { branchId: "elsewhere" }),
    ];
    expect([...failedCallsByPosition(calls, "fork", tree).keys()]).toEqual([3, 6]);
    expect([...failedCallsByPosition(calls, "main", tree).keys()]).toEqual([3, 5]);
  });
});
