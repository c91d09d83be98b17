import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CheckpointBrowser } from "./checkpoint-browser";
import { BRANCH_NAMES, CHECKPOINTS, checkpoint } from "./test-checkpoints";

afterEach(cleanup);

/** The body rows' cells as text, without the selection column. */
function tableRows(): string[][] {
  const table = screen.getByRole("table", { name: "Checkpoints" });
  return within(table)
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole("cell")
        .slice(1)
        .map((cell) => cell.textContent ?? ""),
    );
}

const versions = () => tableRows().map(([branch, version]) => `${branch} ${version}`);

describe("CheckpointBrowser > table", () => {
  it("lists branch, version, time, tokens, messages and origin, oldest first", () => {
    render(<CheckpointBrowser checkpoints={CHECKPOINTS} branchNames={BRANCH_NAMES} />);
    expect(versions()).toEqual(["main v0", "main v1", "retry v0", "retry v1"]);
    const [first] = tableRows();
    expect(first[3]).toBe("900");
    expect(first[4]).toBe("12");
    expect(first[5]).toBe("inherited");
    expect(tableRows()[3][5]).toBe("own");
  });

  it("sorts by a column, ascending then descending", async () => {
    render(<CheckpointBrowser checkpoints={CHECKPOINTS} branchNames={BRANCH_NAMES} />);
    await userEvent.click(screen.getByRole("button", { name: "Tokens" }));
    expect(tableRows().map((row) => row[3])).toEqual(["900", "1,100", "1,400", "1,700"]);
    expect(screen.getByRole("columnheader", { name: /Tokens/ }).getAttribute("aria-sort")).toBe("ascending");
    await userEvent.click(screen.getByRole("button", { name: /Tokens/ }));
    expect(tableRows().map((row) => row[3])).toEqual(["1,700", "1,400", "1,100", "900"]);
    expect(screen.getByRole("columnheader", { name: /Tokens/ }).getAttribute("aria-sort")).toBe("descending");
  });

  it("filters by branch, by own/inherited and by text", async () => {
    render(<CheckpointBrowser checkpoints={CHECKPOINTS} branchNames={BRANCH_NAMES} />);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Branch" }), "retry");
    expect(versions()).toEqual(["retry v0", "retry v1"]);
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Branch" }), "");
    await userEvent.click(screen.getByRole("radio", { name: "Inherited" }));
    expect(versions()).toEqual(["main v0", "main v1"]);
    await userEvent.click(screen.getByRole("radio", { name: "All" }));
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter checkpoints" }), "forced");
    expect(versions()).toEqual(["retry v0"]);
    expect(screen.getByText("1 of 4")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Reset" }));
    expect(versions()).toHaveLength(4);
  });

  it("says when no checkpoint matches", async () => {
    render(<CheckpointBrowser checkpoints={CHECKPOINTS} branchNames={BRANCH_NAMES} />);
    await userEvent.type(screen.getByRole("searchbox", { name: "Filter checkpoints" }), "nothing like this");
    expect(screen.getByText("No checkpoint matches the filters.")).toBeTruthy();
  });

  it("selects at most two rows", async () => {
    render(<CheckpointBrowser checkpoints={CHECKPOINTS} branchNames={BRANCH_NAMES} />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v0 · main for diff" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v1 · retry for diff" }));
    expect(screen.getByRole("checkbox", { name: "Select v1 · main for diff" })).toHaveProperty("disabled", true);
    await userEvent.click(screen.getByRole("button", { name: "Clear selection" }));
    expect(screen.getByRole("checkbox", { name: "Select v1 · main for diff" })).toHaveProperty("disabled", false);
  });
});

describe("CheckpointBrowser > open and diff", () => {
  it("opens a checkpoint: token usage, artifact refs and values as an expandable tree", async () => {
    const opened = {
      ...checkpoint("x", {
        version: 2,
        messageCount: 30,
        context: 1200,
        createdAt: "2026-03-09T12:00:00.000Z",
        values: { history: { length: 30, rounds: 8 }, todos: ["a", "b"] },
      }),
      artifactRefs: ["art_1"],
    };
    render(<CheckpointBrowser checkpoints={[opened]} branchNames={BRANCH_NAMES} />);
    await userEvent.click(screen.getByRole("button", { name: "Open checkpoint v2 · main" }));
    const detail = screen.getByRole("region", { name: "Checkpoint v2 · main" });
    expect(within(detail).getByLabelText("Token usage").textContent).toContain("context1,200");
    expect(within(detail).getByRole("list", { name: "Artifact refs" }).textContent).toBe("art_1");
    const history = within(detail).getByRole("button", { name: "history {2 keys}" });
    expect(history.getAttribute("aria-expanded")).toBe("false");
    await userEvent.click(history);
    expect(history.getAttribute("aria-expanded")).toBe("true");
    expect(within(detail).getByRole("list", { name: "Values of v2 · main" }).textContent).toContain("length30rounds8");
  });

  it("diffs two selected checkpoints from the earlier to the later, coloured by kind with dotted paths", async () => {
    const before = checkpoint("a", {
      version: 0,
      messageCount: 10,
      context: 500,
      createdAt: "2026-03-09T10:00:00.000Z",
      values: { summary: { toPosition: 6, tokens: 80 }, old: true, keep: 1 },
    });
    const after = checkpoint("b", {
      version: 1,
      messageCount: 18,
      context: 700,
      createdAt: "2026-03-09T10:10:00.000Z",
      values: { summary: { toPosition: 14, tokens: 80 }, keep: 1, artifacts: ["art_1"] },
    });
    render(<CheckpointBrowser checkpoints={[before, after]} branchNames={BRANCH_NAMES} />);
    // Picked later first: the diff still reads from the earlier checkpoint.
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v1 · main for diff" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v0 · main for diff" }));
    const diff = screen.getByRole("region", { name: "Diff of v0 · main and v1 · main" });
    expect(within(diff).getByText("1 added")).toBeTruthy();
    const rows = within(within(diff).getByRole("table", { name: "Changed values" }))
      .getAllByRole("row")
      .slice(1);
    expect(rows.map((row) => [row.getAttribute("data-kind"), within(row).getByRole("rowheader").textContent, row.lastElementChild?.textContent])).toEqual([
      ["added", "artifacts", '["art_1"]'],
      ["removed", "old", "true"],
      ["updated", "summary.toPosition", "6 → 14"],
    ]);
  });

  it("[UI-K1] shows the summary text each of the two checkpoints stands on", async () => {
    const [before, after] = [CHECKPOINTS[0], CHECKPOINTS[1]];
    const summary = (id: string, toPosition: number, text: string) => ({
      id,
      branchId: "main",
      fromPosition: 0,
      toPosition,
      text,
      tokens: 20,
      extendsId: null,
      createdAt: "2026-03-09T10:00:00.000Z",
      inherited: false,
    });
    const summaries = [
      summary(before.summaryId!, 8, "The user asked to rebook flight HAT170."),
      summary(after.summaryId!, 16, "Rebooked HAT170; the user now asks about baggage."),
    ];
    render(<CheckpointBrowser checkpoints={[before, after]} branchNames={BRANCH_NAMES} summaries={summaries} />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v0 · main for diff" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select v1 · main for diff" }));
    const diff = screen.getByRole("region", { name: "Diff of v0 · main and v1 · main" });
    expect(within(diff).getByLabelText("Summary at v0 · main").textContent).toBe("The user asked to rebook flight HAT170.");
    expect(within(diff).getByLabelText("Summary at v1 · main").textContent).toBe("Rebooked HAT170; the user now asks about baggage.");
  });

  it("says when two checkpoints hold the same values", async () => {
    const values = { a: 1 };
    render(
      <CheckpointBrowser
        checkpoints={[
          checkpoint("a", { version: 0, messageCount: 4, context: 1, createdAt: "2026-01-01T00:00:00Z", values }),
          checkpoint("b", { version: 1, messageCount: 4, context: 1, createdAt: "2026-01-01T00:01:00Z", values }),
        ]}
        branchNames={BRANCH_NAMES}
      />,
    );
    for (const box of screen.getAllByRole("checkbox")) await userEvent.click(box);
    expect(screen.getByText("The two checkpoints hold the same values.")).toBeTruthy();
  });
});

describe("CheckpointBrowser > empty", () => {
  it("explains when checkpoints appear and offers Checkpoint now", async () => {
    const onCheckpointNow = vi.fn();
    render(<CheckpointBrowser checkpoints={[]} branchNames={BRANCH_NAMES} onCheckpointNow={onCheckpointNow} checkpointMessage="Nothing to checkpoint yet" />);
    expect(screen.getByRole("status").textContent).toMatch(/past its summary threshold:/);
    await userEvent.click(screen.getByRole("button", { name: "Checkpoint now" }));
    expect(onCheckpointNow).toHaveBeenCalledOnce();
    expect(screen.getByText("Nothing to checkpoint yet")).toBeTruthy();
  });
});
