import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CallDetail, CallSummary } from "@/lib/calls/types";
import { createApiClient } from "@/lib/client";
import type { Message } from "@/lib/context/light";
import { CallsPanel } from "./calls-panel";
import { RETRY_FIRST_MS } from "./use-calls";
import { callSummary, rateLimitedCall } from "./test-calls";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const SYSTEM: Message = { role: "system", content: "You are a travel agent." };
const ASK: Message = { role: "user", content: "Where does 8JX2WO go?" };
const REPLY: Message = { role: "assistant", content: "Boston to Seattle." };
const FOLLOW: Message = { role: "user", content: "Is it direct?" };

const CALLS = [
  rateLimitedCall("limited"),
  callSummary("retried", { retries: 1, model: "gpt-4o-2024-08-06", createdAt: "2026-11-23T12:00:03.000Z" }),
  callSummary("next", {
    requestMessages: 4,
    sentMessages: 3,
    tokens: { encoding: "o200k_base", exact: true, system: 100, tools: 50, history: 20, new: 40, total: 210 },
  }),
];

const DETAILS: Record<string, CallDetail> = {
  next: {
    call: CALLS[2],
    request: { model: "gpt-4o", messages: [SYSTEM, ASK, REPLY, FOLLOW] },
    sent: { model: "gpt-4o", messages: [SYSTEM, REPLY, FOLLOW] },
    response: { object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "Yes." } }] },
    error: null,
    messages: [SYSTEM, REPLY, FOLLOW],
    previous: { id: "retried", messages: [SYSTEM, ASK] },
  },
};

/** An API answering the calls list in pages of `pageSize`, and each call's detail. */
function callsApi(calls: CallSummary[], pageSize = 100) {
  const requests: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), "http://localhost");
    requests.push(url.pathname + url.search);
    if (url.pathname === "/api/conversations/c1/calls") {
      const after = url.searchParams.get("after");
      const start = after ? calls.findIndex((call) => call.id === after) + 1 : 0;
      const page = calls.slice(start, start + pageSize);
      return Response.json({ calls: page, nextCursor: start + pageSize < calls.length ? page.at(-1)!.id : null });
    }
    const id = url.pathname.split("/").at(-1)!;
    return DETAILS[id] ? Response.json(DETAILS[id]) : Response.json({ error: { code: "not_found", message: `exchange ${id} not found` } }, { status: 404 });
  });
  return { client: createApiClient({ fetch: fetch as typeof globalThis.fetch }), requests };
}

describe("CallsPanel", () => {
  it("lists every call in order: the 429 with its error and retry advice, its retry, tokens and cost", async () => {
    const { client } = callsApi(CALLS);
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    const table = await screen.findByRole("table", { name: "Model calls" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.textContent);
    // [UI-G4] the number, model, status and what the call sent and cost first; the time (in the machine's zone) last.
    expect(cells(rows[0]).slice(1, -1)).toEqual([
      "gpt-4o",
      "429",
      "—",
      "—",
      "—",
      "—",
      "12 ms",
      "",
      "Chat Completions",
      "Rate limit reached for gpt-4o (retry after 2 s)",
    ]);
    expect(cells(rows[1]).slice(1, -1)).toEqual(["gpt-4o-2024-08-06", "200", "1,200", "80", "1,024", "$0.0025", "420 ms", "retry 1", "Chat Completions", ""]);
    expect(rows[0].getAttribute("aria-label")).toBe("Call 1, gpt-4o, failed with 429: Rate limit reached for gpt-4o (retry after 2 s)");
    expect(screen.getByLabelText("Calls summary").textContent).toContain("1 failed");
    // One bar per call in the chart; the failed one says so.
    const chart = screen.getByRole("figure", { name: "Input tokens per call" });
    const bars = within(chart).getAllByRole("button");
    expect(bars).toHaveLength(3);
    expect(bars[0].getAttribute("aria-label")).toBe("Call 1 (failed): 180 input tokens: system 100, tools 50, history 0, new turns 30");
    expect(chart.querySelectorAll('rect[data-segment="history"]')).toHaveLength(1);
  });

  it("opens a call to the diff against the call before it and its bodies, copyable", async () => {
    const { client } = callsApi(CALLS);
    const copyText = vi.fn(async (_text: string) => undefined);
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={copyText} />);
    await userEvent.click(await screen.findByRole("button", { name: "Open call 3" }));
    const detail = await screen.findByRole("region", { name: "Call 3 details" });
    const diff = await within(detail).findByRole("region", { name: "Changes from call 2 to call 3" });
    expect(within(diff).getByLabelText("Diff summary").textContent).toMatch(/1 removed.*2 added.*0 changed.*1 unchanged/);
    expect(within(diff).getByRole("listitem", { name: /^removed user message #1/ }).textContent).toContain("Where does 8JX2WO go?");
    expect(within(detail).getByText("Request as forwarded")).toBeTruthy();
    await userEvent.click(within(detail).getByText("Request as the agent sent it"));
    await userEvent.click(within(detail).getByRole("button", { name: "Copy request as the agent sent it" }));
    expect(JSON.parse(copyText.mock.calls[0][0])).toEqual(DETAILS.next.request);
    // The row's button closes it again.
    expect(screen.getByRole("button", { name: "Close call 3" }).getAttribute("aria-expanded")).toBe("true");
    await userEvent.click(screen.getByRole("button", { name: "Close call 3" }));
    expect(screen.queryByRole("region", { name: "Call 3 details" })).toBeNull();
  });

  it("says why a call's detail did not load, and loads more pages by cursor", async () => {
    const { client, requests } = callsApi(CALLS, 2);
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    await screen.findByRole("table", { name: "Model calls" });
    expect(screen.getAllByRole("button", { name: /^Open call/ })).toHaveLength(2);
    await userEvent.click(screen.getByRole("button", { name: "Load more calls" }));
    expect(await screen.findByRole("button", { name: "Open call 3" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Load more calls" })).toBeNull();
    expect(requests.filter((request) => request.includes("after=retried"))).toHaveLength(1);
    const chart = screen.getByRole("figure", { name: "Input tokens per call" });
    await userEvent.click(within(chart).getAllByRole("button")[0]);
    expect((await screen.findByRole("alert")).textContent).toBe("Could not load call 1: exchange limited not found");
  });

  it("explains an empty list", async () => {
    const { client } = callsApi([]);
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    expect(await screen.findByRole("heading", { name: "No model calls recorded through the proxy" })).toBeTruthy();
  });

  it("[BD-9] draws bidi overrides in the model cell and in an opened call's bodies as code points", async () => {
    const spoofed = callSummary("spoofed", { model: "gpt\u202Eo4" });
    DETAILS.spoofed = {
      ...DETAILS.next,
      call: spoofed,
      request: { model: "gpt-4o", messages: [{ role: "user", content: "see photo_\u202Egnp.exe" }] },
      previous: null,
    };
    const { client } = callsApi([spoofed]);
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    const table = await screen.findByRole("table", { name: "Model calls" });
    const cells = within(within(table).getAllByRole("row")[1]).getAllByRole("cell");
    expect(cells[1].textContent).toBe("gptU+202Eo4");
    await userEvent.click(screen.getByRole("button", { name: "Open call 1" }));
    const detail = await screen.findByRole("region", { name: "Call 1 details" });
    await userEvent.click(within(detail).getByText("Request as the agent sent it"));
    const body = within(detail).getByLabelText("Request as the agent sent it");
    expect(body.textContent).toContain("photo_U+202Egnp.exe");
    expect(body.textContent).not.toContain("\u202E");
    delete DETAILS.spoofed;
  });

  it("[BD-10] recovers by itself after an outage: retries with growing waits, then lists the calls without being reopened", async () => {
    vi.useFakeTimers();
    let down = 3;
    const attempts: number[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      if (!new URL(String(input), "http://localhost").pathname.endsWith("/calls"))
        return Response.json({ error: { code: "not_found", message: "no" } }, { status: 404 });
      attempts.push(Date.now());
      if (down > 0) {
        down -= 1;
        return Response.json({ error: { code: "database_unavailable", message: "PostgreSQL database is unavailable" } }, { status: 503 });
      }
      return Response.json({ calls: CALLS, nextCursor: null });
    });
    const client = createApiClient({ fetch: fetch as typeof globalThis.fetch });
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole("alert").textContent).toBe("Could not load the calls: PostgreSQL database is unavailable (trying again…)");
    await act(() => vi.advanceTimersByTimeAsync(RETRY_FIRST_MS - 1));
    expect(attempts).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(attempts).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 2));
    expect(attempts).toHaveLength(3);
    await act(() => vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 4));
    expect(attempts).toHaveLength(4);
    expect(attempts.slice(1).map((at, index) => at - attempts[index])).toEqual([RETRY_FIRST_MS, RETRY_FIRST_MS * 2, RETRY_FIRST_MS * 4]);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(within(screen.getByRole("table", { name: "Model calls" })).getAllByRole("row")).toHaveLength(CALLS.length + 1);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(attempts).toHaveLength(4);
  });

  it("[BD-10] does not retry a refusal that cannot pass by itself", async () => {
    vi.useFakeTimers();
    const listed: string[] = [];
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const { pathname } = new URL(String(input), "http://localhost");
      if (pathname.endsWith("/calls")) listed.push(pathname);
      return Response.json({ error: { code: "not_found", message: "conversation 'c1' does not exist" } }, { status: 404 });
    });
    const client = createApiClient({ fetch: fetch as typeof globalThis.fetch });
    render(<CallsPanel conversationId="c1" revision={0} client={client} copyText={vi.fn()} />);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(screen.getByRole("alert").textContent).toBe("Could not load the calls: conversation 'c1' does not exist");
    expect(listed).toHaveLength(1);
  });
});
