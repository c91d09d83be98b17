import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { createApiClient } from "@/lib/client";
import { buildStateTree } from "./state-model";
import { StatePanel } from "./state-panel";
import { ContextStateTree } from "./state-tree";
import { RETRY_STATE, RUN_CONTEXTS } from "./test-state";

afterEach(cleanup);

describe("ContextStateTree", () => {
  it("shows a legend with totals and each node's counts", () => {
    render(<ContextStateTree nodes={buildStateTree(RETRY_STATE, RUN_CONTEXTS)} />);
    const legend = screen.getByRole("list", { name: "Legend" });
    expect(legend.textContent).toContain("own written in this context (8)");
    expect(legend.textContent).toContain("inherited read from an ancestor, up to the fork (4)");
    expect(legend.textContent).toContain("shadows written here, hiding an ancestor's value (2)");
    expect(screen.getByRole("button", { name: "Branch retry" }).textContent).toContain("2 own · 3 inherited · 1 shadows");
  });

  it("marks own, inherited and shadowing keys of the run context", () => {
    render(<ContextStateTree nodes={buildStateTree(RETRY_STATE, RUN_CONTEXTS)} />);
    const state = screen.getByRole("list", { name: "State of run 3" });
    const marks = within(state)
      .getAllByRole("listitem")
      .map((item) => [item.querySelector("code")?.textContent, item.getAttribute("data-origin")]);
    expect(marks).toEqual([
      ["history", "shadows"],
      ["offloaded_messages", "own"],
      ["title", "inherited"],
    ]);
  });

  it("collapses and expands a node, and lists an entry's rows on demand", async () => {
    render(<ContextStateTree nodes={buildStateTree(RETRY_STATE, RUN_CONTEXTS)} />);
    const conversation = screen.getByRole("button", { name: "Context conversation" });
    await userEvent.click(conversation);
    expect(conversation.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("list", { name: "State of run 3" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "offloaded of retry, inherited: 1 handle from main" }));
    expect(screen.getByRole("list", { name: "offloaded of retry (inherited)" }).textContent).toBe(
      "off_ab12 · tool_result · 30,000 characters · message 5 (from main)",
    );
  });

  it("explains an empty tree", () => {
    render(<ContextStateTree nodes={[]} />);
    expect(screen.getByText(/No contexts yet/)).toBeTruthy();
  });
});

describe("StatePanel", () => {
  it("loads the branch's stored state and shows it with the live contexts", async () => {
    const { ancestry, summaries, checkpoints, offloaded, artifacts } = RETRY_STATE;
    const bodies: Record<string, unknown> = {
      "/api/branches/retry": { branch: ancestry[1].branch, ancestry },
      "/api/branches/retry/summaries": { summaries },
      "/api/branches/retry/checkpoints": { checkpoints },
      "/api/branches/retry/offloaded": { offloaded },
      "/api/branches/retry/artifacts": { artifacts },
    };
    const fetch = async (input: RequestInfo | URL) => Response.json(bodies[String(input)]);
    render(<StatePanel branchId="retry" contexts={RUN_CONTEXTS} client={createApiClient({ fetch })} />);
    expect(await screen.findByRole("button", { name: "Branch main" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Context run 3" })).toBeTruthy();
  });

  it("falls back to the live contexts when the stored state cannot load", async () => {
    const fetch = async () => new Response("down", { status: 503 });
    render(<StatePanel branchId="retry" contexts={RUN_CONTEXTS} client={createApiClient({ fetch })} />);
    expect((await screen.findByRole("alert")).textContent).toMatch(/showing the live contexts only/);
    expect(screen.getByRole("button", { name: "Context run 3" })).toBeTruthy();
  });
});
