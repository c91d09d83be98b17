import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import type { RunResult } from "@/lib/playground/protocol";
import { BudgetBar } from "./budget-bar";
import { layoutBudget } from "./budget-layout";

afterEach(cleanup);

// Seed 003's split: history = contextWindow − system − tools − reserve.
const budget: RunResult["budget"] = { contextWindow: 10_000, system: 1_000, tools: 500, reserve: 2_000, history: 6_500, overflow: 0, used: 4_000 };

const segment = (key: string) => screen.getByRole("img").querySelector<HTMLElement>(`[data-segment="${key}"]`);
const legendValue = (label: string) => within(screen.getByRole("list", { name: "Context window split" })).getByText(label).nextElementSibling?.textContent;

describe("BudgetBar", () => {
  it("sizes system, tools, history, free and reserve as shares of the context window", () => {
    render(<BudgetBar budget={budget} tokenBudget={8_000} />);
    expect(segment("system")?.style.width).toBe("10.000%");
    expect(segment("tools")?.style.width).toBe("5.000%");
    expect(segment("history")?.style.width).toBe("40.000%");
    expect(segment("free")?.style.width).toBe("25.000%");
    expect(segment("reserve")?.style.width).toBe("20.000%");
    expect(segment("reserve")?.style.left).toBe("80.000%");
    expect(segment("over")).toBeNull();
  });

  it("lists each segment with its tokens", () => {
    render(<BudgetBar budget={budget} tokenBudget={8_000} />);
    expect(legendValue("System")).toBe("1,000");
    expect(legendValue("Tool definitions")).toBe("500");
    expect(legendValue("History")).toBe("4,000");
    expect(legendValue("Free")).toBe("2,500");
    expect(legendValue("Output reserve")).toBe("2,000");
  });

  it("summarises the split as the bar's accessible name", () => {
    render(<BudgetBar budget={budget} tokenBudget={6_000} />);
    expect(screen.getByRole("img").getAttribute("aria-label")).toBe(
      "Context window 10,000 tokens: system 1,000, tool definitions 500, history 4,000, free 2,500, output reserve 2,000. Token budget 6,000 for system and history, 5,000 used.",
    );
    expect(screen.getByRole("status").textContent).toContain("Within budget: 1,000 tokens to spare.");
  });

  it("draws the budget line where system + history would exactly fill the budget", () => {
    render(<BudgetBar budget={budget} tokenBudget={3_000} />);
    // tools (500) + budget (3,000) on a 10,000 bar.
    expect(screen.getByRole("img").querySelector<HTMLElement>("[data-budget-line]")?.style.left).toBe("35.000%");
  });

  it("caps the budget by the window as token_budget does (B4)", () => {
    render(<BudgetBar budget={budget} tokenBudget={50_000} />);
    expect(screen.getByText("Token budget (capped by the window)")).toBeTruthy();
    expect(legendValue("Token budget (capped by the window)")).toBe("7,500");
  });

  it("explains the deterministic stop when even the smallest valid history is over", () => {
    render(<BudgetBar budget={{ ...budget, used: 5_200 }} tokenBudget={6_000} exceeded={{ budget: 6_000, tokens: 6_200 }} trimmed={{ messages: 12, tokensSaved: 3_400 }} />);
    const status = screen.getByRole("status");
    expect(status.textContent).toContain("Over budget.");
    expect(status.textContent).toContain("The smallest valid history needs 6,200 tokens, budget 6,000: no model call would be made.");
    expect(status.textContent).toContain("token_budget dropped 12 messages (−3,400 tokens) to fit.");
    expect(screen.getByRole("region", { name: "Token budget" }).hasAttribute("data-over")).toBe(true);
    expect(screen.getByRole("img").getAttribute("aria-label")).toMatch(/over budget\.$/);
  });

  it("is over budget when system + history pass the limit without an exceeded record", () => {
    render(<BudgetBar budget={budget} tokenBudget={4_000} />);
    expect(screen.getByRole("status").textContent).toContain("System and history use 5,000 tokens, over the 4,000-token budget");
  });

  it("shows history that does not fit the window as an overflow segment past the window edge", () => {
    render(<BudgetBar budget={{ ...budget, used: 8_500 }} tokenBudget={200_000} />);
    expect(segment("over")).not.toBeNull();
    expect(segment("free")).toBeNull();
    expect(screen.getByRole("status").textContent).toContain("2,000 history tokens do not fit the window");
    const layout = layoutBudget({ ...budget, used: 8_500 }, 200_000);
    expect(layout.scale).toBe(12_000);
    expect(layout.windowEdge).toBeCloseTo(10_000 / 12_000);
  });

  it("says when the fixed parts alone overflow the window", () => {
    render(<BudgetBar budget={{ contextWindow: 4_000, system: 1_500, tools: 1_000, reserve: 4_096, history: 0, overflow: 2_596, used: 0 }} tokenBudget={8_000} />);
    expect(screen.getByRole("status").textContent).toContain("overflow the window by 2,596 tokens");
  });
});
