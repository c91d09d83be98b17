import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { STEPS } from "./test-steps";
import { TraceTable } from "./trace-table";

afterEach(cleanup);

const bodyRows = () =>
  within(screen.getByRole("table", { name: "Pipeline trace" }))
    .getAllByRole("row")
    .slice(1);

describe("TraceTable", () => {
  it("shows one row per processor with before → after, delta, effects and ms", () => {
    render(<TraceTable steps={STEPS} />);
    const cells = within(bodyRows()[0])
      .getAllByRole("cell")
      .map((cell) => cell.textContent);
    expect(cells).toEqual(["120 → 120", "40,000 → 30,000", "−10,000", "2 offloaded", "1.50"]);
    expect(within(bodyRows()[1]).getByText("40 dropped")).toBeTruthy();
    expect(within(bodyRows()[2]).getByText("—")).toBeTruthy();
  });

  it("selects a step through its processor button and highlights the selected row", async () => {
    const onSelectStep = vi.fn();
    render(<TraceTable steps={STEPS} selectedStep={1} onSelectStep={onSelectStep} />);
    expect(bodyRows()[1].hasAttribute("data-selected")).toBe(true);
    expect(screen.getByRole("button", { name: "round_window" }).getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: "token_budget" }));
    expect(onSelectStep).toHaveBeenCalledTimes(1);
    expect(onSelectStep).toHaveBeenCalledWith(2);
    const tokens = within(bodyRows()[0])
      .getAllByRole("cell")
      .find((cell) => cell.textContent === "40,000 → 30,000")!;
    await userEvent.click(tokens);
    expect(onSelectStep).toHaveBeenLastCalledWith(0);
  });

  it("has no buttons when nothing listens for selection", () => {
    render(<TraceTable steps={STEPS} />);
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("[CT2][CT3] ends with what is sent: the last step's tokens, the reply priming and the tools as terms of one total", () => {
    const tokens = { system: 1_000, tools: 500, history: 19_000, priming: 3, total: 20_500 };
    render(<TraceTable steps={STEPS} sent={{ tokens, messages: 40 }} approximate />);
    const sent = within(screen.getByRole("table", { name: "Pipeline trace" })).getByRole("row", { name: /^Sent/ });
    expect(
      within(sent)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["40", "≈ 20,500", "≈ 19,997 in messages + 3 reply priming + 500 in tool definitions = 20,500"]);
    expect(bodyRows()[0].textContent).toContain("≈ 40,000 → 30,000");
  });

  it("says so when no processor ran", () => {
    render(<TraceTable steps={[]} />);
    expect(screen.getByText(/No processor ran/)).toBeTruthy();
  });
});
