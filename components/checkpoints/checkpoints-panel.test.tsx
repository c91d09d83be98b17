import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient, type CheckpointEntry } from "@/lib/client";
import { branchNode } from "@/components/branches/test-branches";
import { CheckpointsPanel } from "./checkpoints-panel";
import { checkpoint } from "./test-checkpoints";

afterEach(cleanup);

const tree = [branchNode("main", { length: 30 })];

/** An API whose checkpoint list grows by one on each forced compaction. */
function compactingApi() {
  const stored: CheckpointEntry[] = [];
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    calls.push(`${init.method ?? "GET"} ${path}${init.body ? ` ${String(init.body)}` : ""}`);
    if (path === "/api/branches/main/compact") {
      const written = checkpoint(`c${stored.length}`, { version: stored.length, messageCount: 30, context: 800, createdAt: "2026-03-09T10:00:00.000Z" });
      stored.push(written);
      const summary = { id: "s1", branchId: "main", fromPosition: 0, toPosition: 24, text: "…", tokens: 80, extendsId: null, createdAt: written.createdAt };
      return Response.json({ compaction: { summary, checkpoint: written, coveredUntil: 24 } });
    }
    if (path === "/api/branches/main/summaries") return Response.json({ summaries: [] });
    return Response.json({ checkpoints: stored });
  });
  return { client: createApiClient({ fetch: fetch as typeof globalThis.fetch }), calls };
}

describe("CheckpointsPanel", () => {
  it("checkpoints now with force, then shows the new checkpoint", async () => {
    const { client, calls } = compactingApi();
    const onCheckpointed = vi.fn();
    render(<CheckpointsPanel branchId="main" tree={tree} client={client} onCheckpointed={onCheckpointed} />);
    await userEvent.click(await screen.findByRole("button", { name: "Checkpoint now" }));
    expect(await screen.findByRole("button", { name: "Open checkpoint v0 · main" })).toBeTruthy();
    expect(screen.getByText("Checkpoint v0 written: messages 0–23 summarised.")).toBeTruthy();
    expect(calls).toEqual([
      "GET /api/branches/main/checkpoints",
      "GET /api/branches/main/summaries",
      'POST /api/branches/main/compact {"force":true}',
      "GET /api/branches/main/checkpoints",
      "GET /api/branches/main/summaries",
    ]);
    expect(onCheckpointed).toHaveBeenCalledOnce();
  });

  it("shows the API's error", async () => {
    const fetch = async () => Response.json({ error: { code: "not_found", message: "branch 'gone' does not exist" } }, { status: 404 });
    render(<CheckpointsPanel branchId="gone" tree={tree} client={createApiClient({ fetch })} />);
    expect((await screen.findByRole("alert")).textContent).toBe("Could not load checkpoints: branch 'gone' does not exist");
  });
});
