import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLocalAgentsClient } from "@/lib/local-agents/client";
import { FollowIndicator } from "./follow-indicator";

afterEach(cleanup);

const follow = {
  path: "/home/me/.claude/projects/-home-me-app/abc.jsonl",
  agent: "claude-code",
  conversationId: "c1",
  startedAt: "2026-02-10T21:11:52.438Z",
  lastImportAt: null,
  lastError: null,
};

describe("FollowIndicator", () => {
  it("[LA6] says which file feeds the conversation, and Stop stops following it", async () => {
    const requests: string[] = [];
    let following = true;
    const fetch = vi.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
      requests.push(`${init.method ?? "GET"} ${String(url)} ${init.body ?? ""}`.trim());
      if (init.method === "POST") {
        following = false;
        return Response.json({ stopped: [follow] });
      }
      return Response.json({ follow: following ? follow : null });
    });
    render(<FollowIndicator conversationId="c1" client={createLocalAgentsClient({ fetch })} pollMs={60_000} />);
    const status = await screen.findByRole("status", { name: "Following a session file" });
    expect(status.textContent).toContain("Following abc.jsonl");
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));
    await waitFor(() => expect(screen.queryByRole("status", { name: "Following a session file" })).toBeNull());
    expect(requests).toEqual(["GET /api/local-agents/follow?conversation=c1", 'POST /api/local-agents/unfollow {"conversationId":"c1"}']);
  });

  it("[LA6] shows nothing, and stops asking, where local agents are off", async () => {
    const fetch = vi.fn(async () => Response.json({ error: { code: "forbidden", message: "off" } }, { status: 403 }));
    render(<FollowIndicator conversationId="c1" client={createLocalAgentsClient({ fetch })} pollMs={10} />);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("status")).toBeNull();
  });
});
