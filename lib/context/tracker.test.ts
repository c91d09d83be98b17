import { describe, expect, it } from "vitest";
import { ContextError } from "./errors";
import { TokenTracker } from "./tracker";
import { addUsage, subtractUsage, toUsage, ZERO_USAGE } from "./usage";

describe("TokenTracker", () => {
  it("numbers each agent's steps from 0 and stamps them with the injected clock", () => {
    let clock = 1000;
    const tracker = new TokenTracker({ now: () => clock++ });
    const first = tracker.addStep("planner", { promptTokens: 800, outputTokens: 60 });
    tracker.addStep("coder", { promptTokens: 500, outputTokens: 200 });
    const second = tracker.addStep("planner", { promptTokens: 900, outputTokens: 40 });
    expect(first).toEqual({ agentId: "planner", step: 0, timestamp: 1000, ...ZERO_USAGE, promptTokens: 800, outputTokens: 60, totalTokens: 860 });
    expect(second).toMatchObject({ agentId: "planner", step: 1, timestamp: 1002 });
    expect(tracker.getTrajectory("planner").map((step) => step.step)).toEqual([0, 1]);
    expect(tracker.getTrajectory("nobody")).toEqual([]);
  });

  it("totals per agent and overall", () => {
    const tracker = new TokenTracker({ now: () => 0 });
    tracker.addStep("planner", { promptTokens: 800, outputTokens: 60 });
    tracker.addStep("coder", { promptTokens: 500, outputTokens: 200 });
    tracker.addStep("planner", { promptTokens: 900, outputTokens: 40, totalTokens: 1000 });
    expect(tracker.agentUsage("planner")).toEqual({ ...ZERO_USAGE, promptTokens: 1700, outputTokens: 100, totalTokens: 1860 });
    expect(tracker.totalUsage()).toEqual({ ...ZERO_USAGE, promptTokens: 2200, outputTokens: 300, totalTokens: 2560 });
    expect(tracker.agents()).toEqual(["planner", "coder"]);
    expect(tracker.agentUsage("nobody")).toEqual(ZERO_USAGE);
  });

  it("[E-U1] records a provider's usage object as sent", () => {
    const tracker = new TokenTracker({ now: () => 0 });
    expect(tracker.addStep("planner", { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 900 })).toMatchObject({
      promptTokens: 1_000,
      cachedPromptTokens: 900,
      outputTokens: 7,
    });
    expect(() => tracker.addStep("planner", { prompt: 5 } as never)).toThrow(ContextError);
    expect(tracker.allSteps()).toHaveLength(1);
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
    expect(toUsage({ promptTokens: 2 })).toEqual({ ...ZERO_USAGE, promptTokens: 2, totalTokens: 2 });
    const a = toUsage({ promptTokens: 10, outputTokens: 5, cachedPromptTokens: 4 });
    const b = toUsage({ promptTokens: 3, outputTokens: 1, cacheWriteTokens: 2 });
    expect(addUsage(a, b)).toEqual({ promptTokens: 13, outputTokens: 6, totalTokens: 19, cachedPromptTokens: 4, cacheWriteTokens: 2 });
    expect(subtractUsage(a, b)).toEqual({ promptTokens: 7, outputTokens: 4, totalTokens: 11, cachedPromptTokens: 4, cacheWriteTokens: -2 });
  });
});
