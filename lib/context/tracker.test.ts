import { describe, expect, it } from "vitest";
import { TokenTracker } from "./tracker";
import { addUsage, subtractUsage, toUsage, ZERO_USAGE } from "./usage";

describe("TokenTracker", () => {
  it("numbers each agent's steps from 0 and stamps them with the injected clock", () => {
    let clock = 1000;
    const tracker = new TokenTracker({ now: () => clock++ });
    const first = tracker.addStep("planner", { promptTokens: 800, outputTokens: 60 });
    tracker.addStep("coder", { promptTokens: 500, outputTokens: 200 });
    const second = tracker.addStep("planner", { promptTokens: 900, outputTokens: 40 });
    expect(first).toEqual({ agentId: "planner", step: 0, timestamp: 1000, promptTokens: 800, outputTokens: 60, totalTokens: 860 });
    expect(second).toMatchObject({ agentId: "planner", step: 1, timestamp: 1002 });
    expect(tracker.getTrajectory("planner").map((step) => step.step)).toEqual([0, 1]);
    expect(tracker.getTrajectory("nobody")).toEqual([]);
  });

  it("totals per agent and overall", () => {
    const tracker = new TokenTracker({ now: () => 0 });
    tracker.addStep("planner", { promptTokens: 800, outputTokens: 60 });
    tracker.addStep("coder", { promptTokens: 500, outputTokens: 200 });
    tracker.addStep("planner", { promptTokens: 900, outputTokens: 40, totalTokens: 1000 });
    expect(tracker.agentUsage("planner")).toEqual({ promptTokens: 1700, outputTokens: 100, totalTokens: 1860 });
    expect(tracker.totalUsage()).toEqual({ promptTokens: 2200, outputTokens: 300, totalTokens: 2560 });
    expect(tracker.agents()).toEqual(["planner", "coder"]);
    expect(tracker.agentUsage("nobody")).toEqual(ZERO_USAGE);
  });

  it("hands out copies of its step list", () => {
    const tracker = new TokenTracker();
    tracker.addStep("a", {});
    tracker.allSteps().pop();
    expect(tracker.allSteps()).toHaveLength(1);
  });
});

describe("usage arithmetic", () => {
  it("normalises, adds and subtracts usage records", () => {
    expect(toUsage({ promptTokens: 2 })).toEqual({ promptTokens: 2, outputTokens: 0, totalTokens: 2 });
    const a = toUsage({ promptTokens: 10, outputTokens: 5 });
    const b = toUsage({ promptTokens: 3, outputTokens: 1 });
    expect(addUsage(a, b)).toEqual({ promptTokens: 13, outputTokens: 6, totalTokens: 19 });
    expect(subtractUsage(a, b)).toEqual({ promptTokens: 7, outputTokens: 4, totalTokens: 11 });
  });
});
