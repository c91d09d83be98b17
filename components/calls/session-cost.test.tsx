import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "@/lib/client";
import type { ConversationCost } from "@/lib/client/types";
import { SessionCost } from "./session-cost";

afterEach(cleanup);

const usage = (input: number, cacheRead: number, cacheWrite5m: number, output: number) => ({
  input,
  cacheRead,
  cacheWrite5m,
  cacheWrite1h: 0,
  output,
  reasoning: 0,
});

const COST: ConversationCost = {
  conversationId: "c1",
  totalUsd: 0.42,
  predictedTotalUsd: 0.4,
  unpricedCalls: 0,
  calls: [
    {
      index: 0,
      at: "2026-01-07T11:54:28.650Z",
      model: "claude-opus-4-5",
      conversationId: "c1",
      source: "reported",
      usage: usage(10, 0, 20_000, 50),
      costUsd: 0.13,
      breakdown: null,
      cacheBreak: null,
      responseId: "msg_1",
      exchangeId: null,
      branchId: "b1",
      position: 1,
    },
    {
      index: 1,
      at: "2026-01-07T12:02:22.966Z",
      model: "claude-opus-4-5",
      conversationId: "c1",
      source: "reported",
      usage: usage(12, 0, 20_500, 40),
      costUsd: 0.29,
      breakdown: null,
      predicted: { usage: usage(12, 0, 20_500, 40), costUsd: 0.27 },
      difference: { cacheRead: 0, cacheWrite: 0, input: 0, costUsd: 0.02 },
      cacheBreak: { reason: "idle-gap", detail: "7 min 52 s after the call before, past the 5-minute cache", position: null },
      responseId: "msg_2",
      exchangeId: null,
      branchId: "b1",
      position: 3,
    },
  ],
  timeline: [
    {
      index: 0,
      at: "2026-01-07T11:54:28.650Z",
      conversationId: "c1",
      subagent: false,
      cacheRead: 0,
      cacheWrite: 20_000,
      miss: 10,
      lost: 0,
      gapSeconds: null,
      ttlSeconds: null,
      expired: false,
      cacheBreak: null,
    },
    {
      index: 1,
      at: "2026-01-07T12:02:22.966Z",
      conversationId: "c1",
      subagent: false,
      cacheRead: 0,
      cacheWrite: 20_500,
      miss: 12,
      lost: 20_000,
      gapSeconds: 472,
      ttlSeconds: 300,
      expired: true,
      cacheBreak: "idle-gap",
    },
  ],
};

function clientAnswering(body: unknown) {
  return createApiClient({ fetch: (async () => new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } })) as typeof fetch });
}

describe("SessionCost", () => {
  it("[CC-11][CC-12] lists every call with its cost, the prediction beside it and why the cache broke, and draws the timeline", async () => {
    render(<SessionCost client={clientAnswering(COST)} conversationId="c1" revision={0} />);
    const summary = await screen.findByLabelText("Cost summary");
    expect(summary.textContent).toContain("2 API calls, 2 with reported usage");
    expect(summary.textContent).toContain("total $0.42");
    expect(summary.textContent).toContain("1 cache break");
    const rows = within(screen.getByRole("table", { name: "Cost per call" })).getAllByRole("row");
    // A header, two calls, and the line under the second saying why its cache broke.
    expect(rows).toHaveLength(4);
    expect(rows[2].textContent).toContain("20,512");
    expect(rows[2].textContent).toContain("20,500 written · 12 new");
    expect(rows[2].textContent).toContain("predicted $0.27");
    expect(rows[3].textContent).toContain("Cache broke: idle past the cache's lifetime. 7 min 52 s after the call before");
    const bars = within(screen.getByRole("figure", { name: "Session timeline" })).getAllByRole("button");
    expect(bars[1].getAttribute("aria-label")).toContain("past the cache's lifetime; cache broke: idle past the cache's lifetime");
  });

  it("[CC-9] links a break to the message where the request first differed, or to a recorded call's request diff", async () => {
    const onShowMessage = vi.fn();
    const onOpenCall = vi.fn();
    const [first, second] = COST.calls;
    const calls = [
      { ...first, exchangeId: "x1", cacheBreak: { reason: "system-changed" as const, detail: "changed at character 40", position: null } },
      {
        ...second,
        cacheBreak: { reason: "message-edited" as const, detail: "message 5 changed", position: { section: "messages" as const, index: 5, tokens: 900 } },
      },
    ];
    render(<SessionCost client={clientAnswering({ ...COST, calls })} conversationId="c1" revision={0} onShowMessage={onShowMessage} onOpenCall={onOpenCall} />);
    fireEvent.click(await screen.findByRole("button", { name: "show message #5" }));
    expect(onShowMessage).toHaveBeenCalledWith(5);
    fireEvent.click(screen.getByRole("button", { name: "open the request diff" }));
    expect(onOpenCall).toHaveBeenCalledWith("x1");
  });

  it("shows nothing for a conversation without calls", async () => {
    const { container } = render(<SessionCost client={clientAnswering({ ...COST, calls: [], timeline: [] })} conversationId="c1" revision={0} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(container.textContent).toBe("");
  });
});
