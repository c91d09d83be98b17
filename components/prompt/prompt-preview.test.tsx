import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "@/lib/client";
import { PromptPanel } from "./prompt-panel";
import { PromptPreview } from "./prompt-preview";
import { EXCEEDED_PROMPT, OK_PROMPT } from "./test-prompt";

afterEach(cleanup);

describe("PromptPreview", () => {
  it("lists the sections in the order they are sent, with tokens and share of the total", () => {
    render(<PromptPreview prompt={OK_PROMPT} />);
    const rows = within(screen.getByRole("list", { name: "Prompt sections" })).getAllByRole("listitem");
    expect(rows.map((row) => row.getAttribute("data-kind"))).toEqual(["system", "tools", "checkpoint", "retrieved", "recent", "current"]);
    expect(rows[4].textContent).toBe("Recent turnsRecent: 2 rounds (messages 24–29)20040.0%");
    expect(rows[3].textContent).toContain("score 4.12");
    expect(screen.getByText("500")).toBeTruthy();
    expect(screen.getByRole("img").getAttribute("aria-label")).toBe(
      "Token share by section: System prompt 8.0%, Tools: 2 definitions 12.0%, Checkpoint v1 (summary of messages 0–23) 20.0%, Retrieved: summary 1 (score 4.12) 10.0%, Recent: 2 rounds (messages 24–29) 40.0%, Current turn 10.0%",
    );
  });

  it("expands a section's messages, tool calls included", async () => {
    render(<PromptPreview prompt={OK_PROMPT} />);
    const toggle = screen.getByRole("button", { name: "5. Recent: 2 rounds (messages 24–29), 3 messages" });
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const messages = within(screen.getByRole("list", { name: "Messages of Recent: 2 rounds (messages 24–29)" })).getAllByRole("listitem");
    expect(messages.map((message) => message.textContent)).toEqual(["usercancel it", 'assistant→ cancel_reservation({"id":"ABC"})', "toolcancelled"]);
  });

  it("shows an ok status with the history tokens against the limit", () => {
    render(<PromptPreview prompt={OK_PROMPT} />);
    const status = screen.getByRole("status");
    expect(status.getAttribute("data-status")).toBe("ok");
    expect(status.textContent).toContain("Fits: 400 of 2,000 history tokens");
  });

  it("explains the deterministic stop when the budget is exceeded", () => {
    render(<PromptPreview prompt={EXCEEDED_PROMPT} />);
    const status = screen.getByRole("status");
    expect(status.getAttribute("data-status")).toBe("budget_exceeded");
    expect(status.textContent).toContain("Budget exceeded: deterministic stop");
    expect(status.textContent).toContain("No model call is made. The request needs 400 tokens besides system messages and tools, but the limit is 300");
    expect(status.textContent).toContain("Left out, still over: retrieved memories, then raw rounds older than the 2 most recent, then raw rounds older than the most recent.");
    expect(screen.getByText(/nothing sent/)).toBeTruthy();
  });

  it("names what a compacting assembly wrote", () => {
    const summary = { id: "s2", branchId: "b1", fromPosition: 0, toPosition: 24, text: "…", tokens: 90, extendsId: null, createdAt: "2026-01-01T00:00:00Z" };
    const checkpoint = { id: "c2", branchId: "b1", version: 2, values: {}, tokenUsage: {}, artifactRefs: [], metadata: null, messageCount: 30, summaryId: "s2", createdAt: "2026-01-01T00:00:00Z" };
    render(<PromptPreview prompt={{ ...OK_PROMPT, status: "compacted", compaction: { summary, checkpoint, coveredUntil: 24 } }} />);
    expect(screen.getByRole("status").textContent).toContain("Assembling first summarised messages 0–23 into checkpoint v2");
  });
});

describe("PromptPanel", () => {
  it("previews without writing and refreshes once the typed turn settles", async () => {
    const urls: string[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      urls.push(`${init.method ?? "GET"} ${String(input)}`);
      return Response.json(OK_PROMPT);
    });
    render(<PromptPanel branchId="b1" client={createApiClient({ fetch: fetch as typeof globalThis.fetch })} />);
    expect(await screen.findByRole("list", { name: "Prompt sections" })).toBeTruthy();
    await userEvent.type(screen.getByRole("textbox", { name: "Next user turn" }), "refund?");
    await waitFor(() => expect(urls).toContain("GET /api/branches/b1/prompt?userTurn=refund%3F"));
    // One request for the empty turn and one for the settled text, none per keystroke.
    expect(urls).toEqual(["GET /api/branches/b1/prompt", "GET /api/branches/b1/prompt?userTurn=refund%3F"]);
  });

  it("assembles for real on request and shows a budget stop", async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL, init: RequestInit = {}) => Response.json(init.method === "POST" ? EXCEEDED_PROMPT : OK_PROMPT));
    render(<PromptPanel branchId="b1" client={createApiClient({ fetch: fetch as typeof globalThis.fetch })} />);
    await screen.findByRole("list", { name: "Prompt sections" });
    await userEvent.click(screen.getByRole("button", { name: "Assemble and compact" }));
    await waitFor(() => expect(screen.getByRole("status").getAttribute("data-status")).toBe("budget_exceeded"));
    expect(fetch).toHaveBeenLastCalledWith("/api/branches/b1/prompt", expect.objectContaining({ method: "POST", body: "{}" }));
  });
});
