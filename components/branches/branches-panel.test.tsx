import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "@/lib/client";
import type { MessageRecord } from "@/lib/db";
import { BranchesPanel } from "./branches-panel";
import { branchNode, records } from "./test-branches";

afterEach(cleanup);

const tree = [branchNode("main", { length: 20, children: [branchNode("retry", { length: 19, forkPosition: 17 })] })];

/** Serves each branch's history from `from` on, as the API does. */
function historyClient(histories: Record<string, MessageRecord[]>) {
  const urls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), "http://lab.test");
    urls.push(url.pathname + url.search);
    const branchId = decodeURIComponent(url.pathname.split("/")[3]);
    const from = Number(url.searchParams.get("from") ?? 0);
    return Response.json({ messages: histories[branchId].filter((record) => record.position >= from) });
  });
  return { client: createApiClient({ fetch: fetch as typeof globalThis.fetch }), urls };
}

describe("BranchesPanel", () => {
  it("shows where two ticked branches diverge, side by side, loading only the tails past their shared prefix", async () => {
    const main = records("main", 0, 20);
    const retry = [...main.slice(0, 17), ...records("retry", 17, 19, (position) => `retry says ${position}`)];
    const { client, urls } = historyClient({ main, retry });
    render(<BranchesPanel tree={tree} currentBranchId="main" forkPosition={null} onSwitch={() => {}} onFork={() => {}} client={client} />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Compare main" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Compare retry" }));
    const region = await screen.findByRole("region", { name: "Divergence of main and retry" });
    expect(region.textContent).toContain("17 messages in common (#0–#16); they diverge at message 17.");
    expect(within(region).getByRole("region", { name: "First differing message of main" }).textContent).toContain("message 17");
    expect(within(region).getByRole("region", { name: "First differing message of retry" }).textContent).toContain("retry says 17");
    expect(urls.sort()).toEqual(["/api/branches/main/messages?from=17", "/api/branches/retry/messages?from=17"]);
  });

  it("forks the current branch at the selected position", async () => {
    const onFork = vi.fn();
    render(<BranchesPanel tree={tree} currentBranchId="main" forkPosition={8} onSwitch={() => {}} onFork={onFork} client={historyClient({}).client} />);
    await userEvent.click(screen.getByRole("button", { name: "Fork after message 7" }));
    expect(onFork).toHaveBeenCalledWith(8);
  });

  it("shows a fork error", () => {
    render(
      <BranchesPanel
        tree={tree}
        currentBranchId="main"
        forkPosition={8}
        onSwitch={() => {}}
        onFork={() => {}}
        forkError="position 30 is past the end"
        client={historyClient({}).client}
      />,
    );
    expect(screen.getByRole("alert").textContent).toBe("position 30 is past the end");
  });
});
