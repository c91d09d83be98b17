import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForkButton, ForkDialog } from "./fork-controls";

afterEach(cleanup);

describe("ForkButton", () => {
  it("forks with the selected position in one click", async () => {
    const onFork = vi.fn();
    render(<ForkButton position={17} onFork={onFork} />);
    await userEvent.click(screen.getByRole("button", { name: "Fork after message 16" }));
    expect(onFork).toHaveBeenCalledWith(17);
  });

  it("is disabled without a selection and while forking", () => {
    const { rerender } = render(<ForkButton position={null} onFork={() => {}} />);
    expect(screen.getByRole("button", { name: "Fork (select a message)" })).toHaveProperty("disabled", true);
    rerender(<ForkButton position={3} onFork={() => {}} pending />);
    expect(screen.getByRole("button", { name: "Forking…" })).toHaveProperty("disabled", true);
  });
});

describe("ForkDialog", () => {
  it("prefills the selected position and forks with the typed name", async () => {
    const onFork = vi.fn(async () => ({ id: "b2" }));
    render(<ForkDialog position={17} length={42} branchName="main" onFork={onFork} />);
    await userEvent.click(screen.getByRole("button", { name: "Fork…" }));
    expect(screen.getByRole("spinbutton", { name: /Messages to inherit/ })).toHaveProperty("value", "17");
    expect(screen.getByText("The new branch inherits messages #0–#16; main is unchanged.")).toBeTruthy();
    await userEvent.type(screen.getByRole("textbox", { name: "Branch name" }), "refund-retry");
    await userEvent.click(screen.getByRole("button", { name: "Create branch" }));
    expect(onFork).toHaveBeenCalledWith(17, "refund-retry");
    expect(screen.queryByRole("button", { name: "Create branch" })).toBeNull();
  });

  it("refuses a position past the branch's length and stays open when the fork fails", async () => {
    const onFork = vi.fn(async () => null);
    render(<ForkDialog position={null} length={5} branchName="main" onFork={onFork} error="the branch moved" />);
    await userEvent.click(screen.getByRole("button", { name: "Fork…" }));
    const position = screen.getByRole("spinbutton", { name: /Messages to inherit/ });
    expect(position).toHaveProperty("value", "5");
    await userEvent.clear(position);
    await userEvent.type(position, "9");
    expect(screen.getByRole("button", { name: "Create branch" })).toHaveProperty("disabled", true);
    await userEvent.clear(position);
    await userEvent.type(position, "2");
    await userEvent.click(screen.getByRole("button", { name: "Create branch" }));
    expect(onFork).toHaveBeenCalledWith(2, undefined);
    expect(screen.getByRole("alert").textContent).toBe("the branch moved");
    expect(screen.getByRole("button", { name: "Create branch" })).toBeTruthy();
  });
});
