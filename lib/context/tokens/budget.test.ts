import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../messages";
import { system } from "../test-support/conversation";
import { computeHistoryBudget, DEFAULT_CONTEXT_WINDOW } from "./budget";
import { TiktokenCounter } from "./counter";

const TOOLS: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_user_details",
      description: "Get the details of a user.",
      parameters: { type: "object", properties: { user_id: { type: "string", description: "The user id." } } },
    },
  },
];
const PROMPT = "# Airline Agent Policy\nYou can help users book, modify, or cancel flight reservations.";

describe("computeHistoryBudget", () => {
  it("[E-B1] history = context window − system − tools − reserved output", () => {
    const counter = new TiktokenCounter({ encoding: "o200k_base" });
    const budget = computeHistoryBudget({ contextWindow: 128_000, maxOutputTokens: 4_096, system: PROMPT, tools: TOOLS, counter });
    const systemTokens = counter.countMessage(system(PROMPT));
    const toolTokens = counter.countTools(TOOLS);
    expect(systemTokens).toBeGreaterThan(10);
    expect(toolTokens).toBeGreaterThan(10);
    expect(budget).toEqual({
      contextWindow: 128_000,
      system: systemTokens,
      tools: toolTokens,
      reserve: 4_096,
      history: 128_000 - systemTokens - toolTokens - 4_096,
      overflow: 0,
    });
  });

  it("[E-B1] counts the system prompt given as messages", () => {
    const counter = new TiktokenCounter({ encoding: "cl100k_base" });
    const messages = [system(PROMPT), system("Be brief.")];
    expect(computeHistoryBudget({ contextWindow: 10_000, system: messages, counter }).system).toBe(
      counter.countMessage(messages[0]) + counter.countMessage(messages[1]),
    );
  });

  it.each([undefined, null, 0, -5])("[E-B1] falls back to a 131072-token window when the window is %s", (contextWindow) => {
    const budget = computeHistoryBudget({ contextWindow, maxOutputTokens: 1_000 });
    expect(DEFAULT_CONTEXT_WINDOW).toBe(131_072);
    expect(budget.contextWindow).toBe(131_072);
    expect(budget.history).toBe(130_072);
  });

  it("[E-B1] context window and max output tokens are separate settings", () => {
    const small = computeHistoryBudget({ contextWindow: 128_000, maxOutputTokens: 1_000 });
    const large = computeHistoryBudget({ contextWindow: 128_000, maxOutputTokens: 32_768 });
    expect(small.contextWindow).toBe(large.contextWindow);
    expect(small.history - large.history).toBe(31_768);
    expect(computeHistoryBudget({ maxOutputTokens: 32_768 }).contextWindow).toBe(131_072);
  });

  it("[E-B1] never returns a negative history: the shortfall is overflow", () => {
    const counter = new TiktokenCounter({ encoding: "cl100k_base" });
    const budget = computeHistoryBudget({ contextWindow: 50, maxOutputTokens: 40, system: PROMPT, counter });
    expect(budget.history).toBe(0);
    expect(budget.overflow).toBe(budget.system + budget.tools + budget.reserve - 50);
    expect(budget.overflow).toBeGreaterThan(0);
  });

  it("[E-B1] with nothing but a window, all of it is history", () => {
    expect(computeHistoryBudget({ contextWindow: 8_192 })).toEqual({ contextWindow: 8_192, system: 0, tools: 0, reserve: 0, history: 8_192, overflow: 0 });
  });
});
