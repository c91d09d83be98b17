import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { TokenDeltaChart } from "./token-delta-chart";
import { STEPS } from "./test-steps";

afterEach(cleanup);

const chart = () => screen.getByRole("figure", { name: "Token deltas per processor" });

describe("TokenDeltaChart", () => {
  it("draws a before/after pair of bars per step, scaled to the largest count", () => {
    render(<TokenDeltaChart steps={STEPS} />);
    const rows = within(chart()).getAllByRole("button");
    expect(rows).toHaveLength(3);
    const bar = (row: number, name: string) => rows[row].querySelector(`rect[data-bar="${name}"]`)?.getAttribute("width");
    expect(bar(0, "before")).toBe("100");
    expect(bar(0, "after")).toBe("75");
    expect(bar(0, "removed")).toBe("25");
    expect(bar(1, "messages-before")).toBe("100");
    expect(bar(1, "messages")).toBe(String((80 / 120) * 100));
    expect(rows[2].querySelector('rect[data-bar="removed"]')).toBeNull();
  });

  it("labels each step with its delta, messages and ms", () => {
    render(<TokenDeltaChart steps={STEPS} />);
    const row = screen.getByRole("button", { name: /^round_window:/ });
    expect(row.getAttribute("aria-label")).toBe("round_window: tokens 30,000 → 20,000 (−10,000), messages 120 → 80, 0.40 ms; 40 dropped");
    expect(within(row).getByText("−10,000")).toBeTruthy();
    expect(within(row).getByText(/120 → 80 msg · 0\.40 ms/)).toBeTruthy();
    expect(screen.getByText(/40,000 → 20,000 tokens \(−20,000\), 120 → 80 messages in 14\.2 ms/)).toBeTruthy();
  });

  it("[CT2] marks every count with ≈ when the tokenizer stands in for the model's", () => {
    render(<TokenDeltaChart steps={STEPS} approximate />);
    const row = screen.getByRole("button", { name: /^round_window:/ });
    expect(row.getAttribute("aria-label")).toMatch(/^round_window: tokens ≈ 30,000 → 20,000/);
    expect(row.textContent).toMatch(/≈ \S+ → \S+ tok/);
    expect(screen.getByText(/≈ 40,000 → 20,000 tokens/)).toBeTruthy();
    cleanup();
    render(<TokenDeltaChart steps={STEPS} />);
    expect(chart().textContent).not.toContain("≈");
  });

  it("calls onSelectStep with the clicked step and marks the selected one", async () => {
    const onSelectStep = vi.fn();
    render(<TokenDeltaChart steps={STEPS} selectedStep={0} onSelectStep={onSelectStep} />);
    expect(screen.getByRole("button", { name: /^message_offloader:/ }).getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: /^token_budget:/ }));
    expect(onSelectStep).toHaveBeenCalledWith(2);
  });

  it("moves the selection with the arrow keys", async () => {
    const onSelectStep = vi.fn();
    render(<TokenDeltaChart steps={STEPS} selectedStep={1} onSelectStep={onSelectStep} />);
    screen.getByRole("button", { name: /^round_window:/ }).focus();
    await userEvent.keyboard("{ArrowDown}");
    expect(onSelectStep).toHaveBeenLastCalledWith(2);
    await userEvent.keyboard("{ArrowUp}");
    expect(onSelectStep).toHaveBeenLastCalledWith(0);
  });

  it("says so when no processor ran", () => {
    render(<TokenDeltaChart steps={[]} />);
    expect(screen.getByText(/No processor ran/)).toBeTruthy();
  });
});
