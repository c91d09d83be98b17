import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Message } from "@/lib/context/light";
import { StepDiff } from "./step-diff";

afterEach(cleanup);

const user = (content: string): Message => ({ role: "user", content });
const assistant = (content: string): Message => ({ role: "assistant", content });
const history = (count: number) => Array.from({ length: count }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`)));
const summary = () => screen.getByLabelText("Diff summary").textContent;
const rows = () => within(screen.getByRole("list", { name: "Changed messages" })).getAllByRole("listitem");

describe("StepDiff", () => {
  it("counts removed, added, replaced and unchanged messages at the top", () => {
    const before = history(6);
    const after = [before[2], assistant("rewritten"), before[4], before[5], user("new")];
    render(<StepDiff before={before} after={after} processor="round_window" />);
    expect(screen.getByRole("region", { name: "Changes made by round_window" })).toBeTruthy();
    expect(summary()).toContain("2 removed");
    expect(summary()).toContain("1 added");
    expect(summary()).toContain("1 replaced");
    expect(summary()).toContain("3 unchanged");
    expect(summary()).toContain("6 messages → 5");
  });

  it("shows the word-level difference of a replaced message", () => {
    const before = [user("The quick brown fox jumps")];
    render(<StepDiff before={before} after={[user("The slow brown fox jumps")]} />);
    const row = screen.getByRole("listitem", { name: "replaced user message #0 → #0" });
    expect(row.querySelector("del")?.textContent).toBe("quick");
    expect(row.querySelector("ins")?.textContent).toBe("slow");
    expect(row.textContent).toContain("brown fox jumps");
  });

  it("names the effect and shows tool calls and tool_call_ids", () => {
    const call: Message = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_7", type: "function", function: { name: "get_order", arguments: '{"id":"W1"}' } }],
    };
    const result: Message = { role: "tool", content: "order W1: shipped", tool_call_id: "call_7" };
    const before = [user("where is my order"), call, result, assistant("It shipped.")];
    render(<StepDiff before={before} after={[before[0], before[3]]} effects={[{ kind: "compressed", before: [[1, 3]], after: [] }]} />);
    const removed = screen.getAllByRole("listitem", { name: /^removed/ });
    expect(removed).toHaveLength(2);
    expect(within(removed[0]).getByText("compressed")).toBeTruthy();
    expect(within(removed[0]).getByRole("list", { name: "Tool calls (removed)" }).textContent).toContain('get_order({"id":"W1"}) call_7');
    expect(within(removed[1]).getByText("↩ call_7")).toBeTruthy();
  });

  it("folds the unchanged runs of a 10,000-message history", async () => {
    const before = history(10_000);
    const after = [...before];
    after[5_000] = user("changed");
    render(<StepDiff before={before} after={after} />);
    expect(rows()).toHaveLength(5);
    expect(screen.getByText("… 4,999 unchanged messages …")).toBeTruthy();
    expect(screen.getByText("… 4,998 unchanged messages …")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Show 4,998 unchanged" }));
    expect(screen.getByRole("navigation", { name: "Diff pages" }).textContent).toContain("Rows 1–100 of 5,002");
  });

  it("pages through long diffs", async () => {
    const before = history(250);
    const after = before.map((message) => ({ ...message, content: `${message.content} (edited)` }));
    render(<StepDiff before={before} after={after} pageSize={100} />);
    expect(rows()).toHaveLength(100);
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    await userEvent.click(screen.getByRole("button", { name: "Next page" }));
    expect(rows()).toHaveLength(50);
    expect(screen.getByRole("button", { name: "Next page" })).toHaveProperty("disabled", true);
    expect(rows()[0].getAttribute("aria-label")).toBe("replaced user message #200 → #200");
  });

  it("says so when the processor changed nothing", () => {
    const before = history(3);
    render(<StepDiff before={before} after={before} />);
    expect(screen.getByText("This processor left the history unchanged.")).toBeTruthy();
  });

  it("shows both contents whole when they are too different for a word diff", () => {
    const long = Array.from({ length: 3_000 }, (_, index) => `word${index}`).join(" ");
    render(
      <StepDiff
        before={[user(long)]}
        after={[user("[[OFFLOADED: handle=off_0123456789ab]]")]}
        effects={[{ kind: "offloaded", before: [[0, 1]], after: [[0, 1]] }]}
      />,
    );
    expect(screen.getByText(/Too different for a word diff/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /Show all [\d,]+ characters/ })).toBeTruthy();
  });
});
