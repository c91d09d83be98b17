import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "@/lib/client";
import { PromptPanel } from "./prompt-panel";
import { PromptPreview } from "./prompt-preview";
import { EXCEEDED_PROMPT, OK_PROMPT } from "./test-prompt";

afterEach(cleanup);

describe("PromptPreview", () => {
  it("[E-RB4][CT3] lists the sections, static first, then the reply priming, with tokens and share of the total", () => {
    render(<PromptPreview view={OK_PROMPT} />);
    const rows = within(screen.getByRole("list", { name: "Prompt sections" })).getAllByRole("listitem");
    expect(rows.map((row) => row.getAttribute("data-kind"))).toEqual(["system", "tools", "summary", "retrieved", "recent", "current", "priming"]);
    expect(rows[4].textContent).toBe("Recent turnsRecent: 3 messages19739.4%");
    expect(rows[6].textContent).toBe("Reply primingTokens that start the reply30.6%");
    expect(screen.getByText("500")).toBeTruthy();
    expect(screen.getByText("437 in messages + 3 reply priming + 60 in tool definitions = 500 / limit 2,000")).toBeTruthy();
    expect(screen.getByRole("img").getAttribute("aria-label")).toBe(
      "Token share by section: System prompt 8.0%, Tools: 2 definitions 12.0%, Checkpoint v1 (summary of messages 0–23) 20.0%, Retrieved: summary 1 10.0%, Recent: 3 messages 39.4%, Current turn 10.0%",
    );
  });

  it("expands a section's messages, tool calls included", async () => {
    render(<PromptPreview view={OK_PROMPT} />);
    const toggle = screen.getByRole("button", { name: "5. Recent: 3 messages, 3 messages" });
    await userEvent.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const rows = within(screen.getByRole("list", { name: "Messages of Recent: 3 messages" })).getAllByRole("listitem");
    expect(rows.map((row) => row.textContent)).toEqual(["usercancel it", 'assistant→ cancel_reservation({"id":"ABC"})', "toolcancelled"]);
  });

  it("[E-RB3] says the request fits, with its tokens against the limit", () => {
    render(<PromptPreview view={OK_PROMPT} />);
    const status = screen.getByRole("status");
    expect(status.getAttribute("data-status")).toBe("ok");
    expect(status.textContent).toContain("Fits500 of 2,000 tokens (the limit is the token budget).");
  });

  it("[E-RB3] says nothing is sent when the request is over budget, and why", () => {
    render(<PromptPreview view={EXCEEDED_PROMPT} />);
    const status = screen.getByRole("status");
    expect(status.getAttribute("data-status")).toBe("budget_exceeded");
    expect(status.textContent).toContain("Over budget: nothing is sent");
    expect(status.textContent).toContain("the request needs 500 tokens, 200 over the token budget of 300");
    expect(screen.getByText(/nothing sent/)).toBeTruthy();
  });

  it("[ST-4][CT2] labels approximate counts", () => {
    render(
      <PromptPreview
        view={{
          ...OK_PROMPT,
          tokenizer: { model: "claude-sonnet-4-5", match: "exact", encoding: "o200k_base", exact: false, approximation: "Claude's tokenizer is not public" },
        }}
      />,
    );
    expect(screen.getByRole("status").textContent).toContain("≈ 500 of 2,000 tokens");
    expect(screen.getByRole("status").textContent).toContain("Counts are approximate: Claude's tokenizer is not public.");
    expect(within(screen.getByRole("list", { name: "Prompt sections" })).getAllByText(/^≈ /)).toHaveLength(6);
  });

  it("shows the exact JSON body of the next call", async () => {
    render(<PromptPreview view={OK_PROMPT} />);
    await userEvent.click(screen.getByRole("button", { name: /Request body \(JSON/ }));
    const body = JSON.parse(screen.getByLabelText("Request body JSON").textContent ?? "");
    expect(body.model).toBe("gpt-4o");
    expect(body.max_tokens).toBe(1_000);
    expect(body.messages).toHaveLength(7);
    // Engine marks stay home: the wire gets role and content only.
    expect(body.messages[1]).toEqual({ role: "system", content: OK_PROMPT.messages[1].content });
  });

  it("[BD-9] draws a bidi override in the request JSON as its code point, and copies the body as it is", async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const view = { ...OK_PROMPT, messages: [...OK_PROMPT.messages.slice(0, 6), { role: "user" as const, content: "open photo_\u202Egnp.exe" }] };
    render(<PromptPreview view={view} />);
    await userEvent.click(screen.getByRole("button", { name: /Request body \(JSON/ }));
    const shown = screen.getByLabelText("Request body JSON");
    expect(shown.textContent).toContain("photo_U+202Egnp.exe");
    expect(shown.textContent).not.toContain("\u202E");
    expect(shown.querySelectorAll('[data-invisible="U+202E"]')).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Copy" }));
    expect(writeText.mock.calls[0][0]).toContain("photo_\u202Egnp.exe");
  });
});

describe("PromptPanel", () => {
  it("types the next turn into the workspace, which builds the request with it", async () => {
    const typed: string[] = [];
    render(<PromptPanel branchId="b1" view={OK_PROMPT} nextTurn="" onNextTurnChange={(text) => typed.push(text)} />);
    await userEvent.type(screen.getByRole("textbox", { name: "Next user turn" }), "r");
    expect(typed).toEqual(["r"]);
  });

  it("compacts on request and reports what it summarised", async () => {
    const summary = { id: "s2", branchId: "b1", fromPosition: 0, toPosition: 24, text: "…", tokens: 90, extendsId: null, createdAt: "2026-01-01T00:00:00Z" };
    const checkpoint = {
      id: "c2",
      branchId: "b1",
      version: 2,
      values: {},
      tokenUsage: {},
      artifactRefs: [],
      metadata: null,
      messageCount: 30,
      summaryId: "s2",
      createdAt: "2026-01-01T00:00:00Z",
    };
    const fetch = vi.fn(async () => Response.json({ ...OK_PROMPT, status: "compacted", compaction: { summary, checkpoint, coveredUntil: 24 } }));
    const compacted = vi.fn();
    render(
      <PromptPanel
        branchId="b1"
        view={OK_PROMPT}
        nextTurn=""
        onNextTurnChange={() => undefined}
        onCompacted={compacted}
        client={createApiClient({ fetch: fetch as typeof globalThis.fetch })}
      />,
    );
    await userEvent.click(screen.getByRole("button", { name: "Compact now" }));
    await waitFor(() => expect(screen.getByText("Summarised messages 0–23 into checkpoint v2.")).toBeTruthy());
    expect(fetch).toHaveBeenLastCalledWith("/api/branches/b1/prompt", expect.objectContaining({ method: "POST", body: JSON.stringify({ compact: true }) }));
    expect(compacted).toHaveBeenCalledTimes(1);
  });
});
