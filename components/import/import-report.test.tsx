import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ImportReport } from "./import-report";

afterEach(cleanup);

describe("ImportReport", () => {
  it("lists per conversation what was dropped, repaired and approximated, linking each to its stored message", () => {
    render(
      <ImportReport
        format="claude-code"
        conversations={[
          {
            id: "c1",
            title: "Fix the test",
            messageCount: 5,
            warnings: [
              { code: "orphan-tool-result", message: "tool result 'x' has no assistant tool call right before it; dropped", messageIndex: 6, position: 6 },
              { code: "lines-merged", message: "lines 5, 6 are one streamed message", messageIndex: 1, position: 1 },
              { code: "entry-skipped", message: "skipped 6 lines that hold no message" },
            ],
          },
          { id: "c2", title: "Fix the test (subagent 1)", messageCount: 5, warnings: [] },
        ]}
      />,
    );
    const report = screen.getByRole("region", { name: "Import report" });
    expect(report.textContent).toContain("Read as Claude Code session (JSONL). 2 conversations created.");
    expect(within(report).getByRole("link", { name: "Fix the test (subagent 1)" }).getAttribute("href")).toBe("/c/c2");
    const group = within(report).getByRole("group", { name: "Report for Fix the test" });
    expect(
      within(group)
        .getAllByRole("heading")
        .map((heading) => heading.textContent),
    ).toEqual(["Fix the test", "Dropped", "Converted"]);
    expect(within(group).getByRole("link", { name: "message 6" }).getAttribute("href")).toBe("/c/c1?message=6");
    expect(group.textContent).toContain("skipped 6 lines that hold no message");
  });

  it("says a clean conversation was imported as it was, without links before it is stored", () => {
    render(<ImportReport preview format="openai" conversations={[{ title: "t", messageCount: 3, warnings: [] }]} />);
    expect(screen.getByRole("region", { name: "Import report" }).textContent).toContain("3 messages imported as they were");
    expect(screen.queryByRole("link")).toBeNull();
  });
});
