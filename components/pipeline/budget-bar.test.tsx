import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { budgetVerdict, type BudgetVerdict } from "@/lib/context/light";
import { BudgetBar } from "./budget-bar";
import { layoutBudget } from "./budget-layout";

afterEach(cleanup);

// system 1,000 + tools 500 + history 4,000 = 5,500 sent; window 10,000 with a 2,000-token reserve.
const tokens = { system: 1_000, tools: 500, history: 4_000, priming: 3, total: 5_500 };
const verdictOf = (budget: number | null, overrides: Partial<typeof tokens> = {}): BudgetVerdict => {
  const split = { ...tokens, ...overrides };
  return budgetVerdict({ ...split, total: split.system + split.tools + split.history }, { contextWindow: 10_000, reserve: 2_000, budget });
};

const segment = (key: string) => screen.getByRole("img").querySelector<HTMLElement>(`[data-segment="${key}"]`);
const legendValue = (label: string) => within(screen.getByRole("list", { name: "Context window split" })).getByText(label).nextElementSibling?.textContent;

describe("BudgetBar", () => {
  it("[E-RB3] sizes system, tools, history, free and reserve as shares of the context window", () => {
    render(<BudgetBar verdict={verdictOf(null)} />);
    expect(segment("system")?.style.width).toBe("10.000%");
    expect(segment("tools")?.style.width).toBe("5.000%");
    expect(segment("history")?.style.width).toBe("40.000%");
    expect(segment("free")?.style.width).toBe("25.000%");
    expect(segment("reserve")?.style.width).toBe("20.000%");
    expect(segment("reserve")?.style.left).toBe("80.000%");
    expect(segment("over")).toBeNull();
    expect(legendValue("Limit (window − reserve)")).toBe("8,000");
  });

  it("[E-RB3][CT4] summarises the split and the verdict; free is what the token budget leaves, the window's room past it apart", () => {
    render(<BudgetBar verdict={verdictOf(6_000)} />);
    expect(screen.getByRole("img").getAttribute("aria-label")).toBe(
      "Context window 10,000 tokens: system 1,000, tool definitions 500, history 4,000, free 500, past the token budget 2,000, output reserve 2,000. 5,500 tokens sent of a 6,000-token limit.",
    );
    expect(legendValue("Free")).toBe("500");
    expect(within(screen.getByRole("list", { name: "Context window split" })).getByText("Free").parentElement?.textContent).toBe("Free5008.3%");
    expect(segment("free")?.style.width).toBe("5.000%");
    expect(segment("beyond")?.style.width).toBe("20.000%");
    expect(screen.getByRole("status").textContent).toContain("Within budget: 500 tokens to spare.");
  });

  it("[E-RB3] draws the hard budget where everything sent must end", () => {
    render(<BudgetBar verdict={verdictOf(3_000)} />);
    expect(screen.getByRole("img").querySelector<HTMLElement>("[data-budget-line]")?.style.left).toBe("30.000%");
    expect(legendValue("Token budget")).toBe("3,000");
  });

  it("[E-RB3][CT4] a request over the limit says nothing would be sent, and why, with nothing free and nothing dropped", () => {
    render(<BudgetBar verdict={verdictOf(5_000)} trimmed={{ messages: 12, tokensSaved: 3_400 }} />);
    const status = screen.getByRole("status");
    expect(status.textContent).toContain("Over budget: nothing would be sent.");
    expect(status.textContent).toContain("needs 5500 tokens, 500 over the token budget of 5000");
    expect(status.textContent).not.toContain("dropped");
    expect(legendValue("Free")).toBe("0");
    expect(screen.getByRole("region", { name: "Token budget" }).hasAttribute("data-over")).toBe(true);
    expect(segment("over")?.style.width).toBe("5.000%");
  });

  it("[E-RB3] within budget, says what the token budget dropped to fit", () => {
    render(<BudgetBar verdict={verdictOf(6_000)} trimmed={{ messages: 12, tokensSaved: 3_400 }} />);
    expect(screen.getByRole("status").textContent).toContain("The token budget dropped 12 messages (−3,400 tokens) to fit.");
  });

  it("shows a request past the window as an overflow past the window edge", () => {
    const layout = layoutBudget(verdictOf(null, { history: 8_500 }));
    expect(layout.over).toBe(2_000);
    expect(layout.scale).toBe(12_000);
    expect(layout.windowEdge).toBeCloseTo(10_000 / 12_000);
  });

  it("[ST-4][CT2] says when counts are approximate", () => {
    render(<BudgetBar verdict={verdictOf(null)} approximation="Claude's tokenizer is not public; o200k_base approximates it" />);
    expect(screen.getByText(/Counts are approximate: Claude's tokenizer is not public/)).toBeTruthy();
    expect(screen.getByRole("img").getAttribute("aria-label")).toContain("≈ 5,500 tokens sent");
    expect(legendValue("History")).toBe("≈ 4,000");
  });
});

describe("AssemblyLine", () => {
  it("[E-RB1] says what the processors received: the saved summary in place of what it covers, memories, the rest, the typed turn", async () => {
    const { AssemblyLine } = await import("./assembly-line");
    render(
      <AssemblyLine
        withTurn
        request={{
          candidate: 30,
          summary: { id: "s", text: "t", fromPosition: 0, toPosition: 42, label: "Checkpoint v3 (summary of messages 0–41)" },
          retrieved: [{ id: "a", kind: "summary", label: "summary 1", content: "x" }],
        }}
      />,
    );
    expect(screen.getByLabelText("What the processors received").textContent).toBe(
      "The processors received 30 messages: Checkpoint v3 (summary of messages 0–41) in place of messages 0–41, then 1 retrieved memory (summary 1), then the messages after it, then the typed next turn.",
    );
  });
});
