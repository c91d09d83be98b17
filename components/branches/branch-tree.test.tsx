import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BranchTree } from "./branch-tree";
import { branchNode } from "./test-branches";

afterEach(cleanup);

const tree = [branchNode("main", { length: 42, children: [branchNode("retry", { length: 20, forkPosition: 17 })] })];

describe("BranchTree", () => {
  it("lists every branch with its length and fork point, the current one marked", () => {
    render(<BranchTree tree={tree} currentBranchId="retry" onSwitch={() => {}} />);
    const rows = within(screen.getByRole("list", { name: "Branches" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(["main42 messages · root", "retrycurrent20 messages · 3 own · forked at message 17"]);
    expect(screen.getByRole("button", { name: "Current branch retry" }).getAttribute("aria-current")).toBe("true");
    expect(screen.getByRole("button", { name: "Switch to branch main" }).getAttribute("aria-current")).toBeNull();
  });

  it("draws one link per fork", () => {
    const { container } = render(<BranchTree tree={tree} currentBranchId="main" onSwitch={() => {}} />);
    expect(container.querySelectorAll("svg path")).toHaveLength(1);
    expect(container.querySelectorAll("svg circle[data-current]")).toHaveLength(1);
  });

  it("switches to a clicked branch", async () => {
    const onSwitch = vi.fn();
    render(<BranchTree tree={tree} currentBranchId="main" onSwitch={onSwitch} />);
    await userEvent.click(screen.getByRole("button", { name: "Switch to branch retry" }));
    expect(onSwitch).toHaveBeenCalledWith("retry");
  });

  it("offers compare checkboxes and disables a third pick", async () => {
    const onToggleCompare = vi.fn();
    const three = [
      branchNode("main", { length: 4, children: [branchNode("a", { length: 3, forkPosition: 2 }), branchNode("b", { length: 3, forkPosition: 1 })] }),
    ];
    render(<BranchTree tree={three} currentBranchId="main" onSwitch={() => {}} compared={["main", "a"]} onToggleCompare={onToggleCompare} />);
    expect(screen.getByRole("checkbox", { name: "Compare b" })).toHaveProperty("disabled", true);
    await userEvent.click(screen.getByRole("checkbox", { name: "Compare a" }));
    expect(onToggleCompare).toHaveBeenCalledWith("a");
  });

  it("explains an empty tree", () => {
    render(<BranchTree tree={[]} currentBranchId={null} onSwitch={() => {}} />);
    expect(screen.getByText(/No branches yet/)).toBeTruthy();
  });
});
