import { act, cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "@/lib/context/light";
import { createChatApi } from "./chat-api";
import { RecorderPanel } from "./recorder-panel";
import { CONFIGURED, done, record, scriptedFetch, sse, streamResponse, UNCONFIGURED, WRITTEN } from "./test-recorder";

afterEach(cleanup);

const HISTORY: Message[] = [{ role: "system", content: "You are helpful." }];
const lookup = { id: "call_1", type: "function" as const, function: { name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' } };

function setup(chats: (() => Response)[], options: { view?: typeof CONFIGURED; messages?: Message[] } = {}) {
  const scripted = scriptedFetch(options.view ?? CONFIGURED, chats);
  const onRecorded = vi.fn();
  const onSettled = vi.fn();
  const utils = render(
    <RecorderPanel
      branchId="b1"
      messages={options.messages ?? HISTORY}
      model="gpt-4o"
      api={createChatApi({ fetch: scripted.fetch })}
      onRecorded={onRecorded}
      onSettled={onSettled}
    />,
  );
  return { ...utils, ...scripted, onRecorded, onSettled, composer: () => screen.getByRole("textbox", { name: "User turn" }) };
}

describe("RecorderPanel", () => {
  it("sends on Enter (Shift+Enter is a new line), streams the reply in token by token, then reports what was recorded", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const user = record(1, { role: "user", content: "Hi\nthere" });
    const reply = done(2, { role: "assistant", content: "Hello there!" });
    const chat = () =>
      streamResponse(
        [
          sse("turn-recorded", { recorded: [user] }),
          sse("delta", { type: "text", text: "Hello" }),
          sse("delta", { type: "text", text: " there!" }),
          sse("done", reply),
        ],
        async (index) => {
          if (index === 2) await held;
        },
      );
    const { composer, calls, onRecorded, onSettled } = setup([chat]);
    await waitFor(() => expect(screen.getByLabelText("Upstream status").textContent).toContain("http://127.0.0.1:4010/v1 · key …4321 · model gpt-4o"));

    await userEvent.type(composer(), "Hi{Shift>}{Enter}{/Shift}there");
    expect((composer() as HTMLTextAreaElement).value).toBe("Hi\nthere");
    await userEvent.type(composer(), "{Enter}");
    const log = await screen.findByRole("log", { name: "Assistant reply" });
    await waitFor(() => expect(log.textContent).toContain("Hello"));
    expect(log.textContent).not.toContain("there!");
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();
    expect(onRecorded).toHaveBeenCalledWith([user]);

    await act(async () => release());
    await waitFor(() => expect(log.textContent).toContain("Hello there!"));
    expect(calls.at(-1)).toMatchObject({ method: "POST", url: "/api/branches/b1/chat", body: { userTurn: "Hi\nthere", stream: true } });
    expect((composer() as HTMLTextAreaElement).value).toBe("");
    expect(screen.getByRole("status", { name: "Recorder status" }).textContent).toBe("Reply recorded as message 2 (fake-gpt). Sent 3 messages, 30 tokens.");
    expect(onRecorded).toHaveBeenLastCalledWith([reply.message]);
    expect(onSettled).toHaveBeenCalledWith(reply);
  });

  it("shows the reply's tool calls as forms and sends the pasted results together", async () => {
    const calling = done(2, { role: "assistant", content: null, tool_calls: [lookup] });
    const chats = [
      () =>
        streamResponse([
          sse("turn-recorded", { recorded: [record(1, { role: "user", content: "Look it up" })] }),
          sse("delta", { type: "tool-call", index: 0, id: "call_1", name: "get_reservation_details", arguments: '{"reservation_id":' }),
          sse("delta", { type: "tool-call", index: 0, id: null, name: null, arguments: '"8JX2WO"}' }),
          sse("done", calling),
        ]),
      () =>
        streamResponse([
          sse("turn-recorded", { recorded: [record(3, { role: "tool", tool_call_id: "call_1", content: '{"origin":"BOS"}' })] }),
          sse("done", done(4, { role: "assistant", content: "It leaves from Boston." })),
        ]),
    ];
    const { composer, calls } = setup(chats);
    await userEvent.type(composer(), "Look it up{Enter}");
    const form = await screen.findByRole("form", { name: "Pending tool calls" });
    expect(screen.getByRole("log", { name: "Assistant reply" }).textContent).toContain('→ get_reservation_details({"reservation_id":"8JX2WO"})');
    expect(within(form).getByLabelText("Arguments of get_reservation_details").textContent).toBe('{\n  "reservation_id": "8JX2WO"\n}');
    expect(composer().hasAttribute("disabled")).toBe(true);
    expect(composer().getAttribute("placeholder")).toBe("Answer the pending tool calls first");

    const result = within(form).getByRole("textbox", { name: "Result of get_reservation_details (call_1)" });
    await userEvent.click(result);
    await userEvent.paste('{"origin": "BOS"');
    expect(within(form).getByText("Not valid JSON: it will be sent as text.")).toBeTruthy();
    await userEvent.type(result, "}");
    await userEvent.click(within(form).getByRole("button", { name: "Send results" }));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Pending tool calls" })).toBeNull());
    expect(calls.at(-1)!.body).toEqual({ toolResults: [{ tool_call_id: "call_1", content: '{"origin": "BOS"}' }], stream: true });
    await waitFor(() => expect(screen.getByRole("log", { name: "Assistant reply" }).textContent).toContain("It leaves from Boston."));
  });

  it("takes pending calls from the branch it opens on", () => {
    setup([], { messages: [...HISTORY, { role: "user", content: "x" }, { role: "assistant", content: null, tool_calls: [lookup] }] });
    expect(screen.getByRole("form", { name: "Pending tool calls" })).toBeTruthy();
  });

  it("names the checkpoint a turn created and an upstream summarizer that fell back", async () => {
    const checkpoint = {
      checkpointId: "c3",
      version: 3,
      branchId: "b1",
      summaryId: "s3",
      fromPosition: 1,
      toPosition: 9,
      reason: "threshold",
      when: "prompt" as const,
    };
    const reply = done(
      12,
      { role: "assistant", content: "ok" },
      { checkpoints: [checkpoint], summarizer: { kind: "upstream", calls: 1, fallbacks: [{ reason: "500 server_error: down" }] } },
    );
    const { composer } = setup([() => streamResponse([sse("turn-recorded", { recorded: [] }), sse("done", reply)])]);
    await userEvent.type(composer(), "Next{Enter}");
    expect(await screen.findByText("Checkpoint v3 created (threshold, when the new turn made the branch due): messages 1–8 summarised.")).toBeTruthy();
    expect(screen.getByText("The upstream summarizer failed (500 server_error: down); the extractive summary was written instead.")).toBeTruthy();
  });

  it("explains the budget stop: no model call, the numbers and the reason", async () => {
    const stop = {
      ...WRITTEN,
      status: "budget_exceeded" as const,
      budget: 12,
      tokens: 40,
      reason: "the request needs 40 tokens besides system messages and tools, but the limit is 12: no model call should be made",
    };
    const { composer } = setup([() => streamResponse([sse("turn-recorded", { recorded: [] }), sse("budget-exceeded", stop)])]);
    await userEvent.type(composer(), "Long question{Enter}");
    const alert = await screen.findByRole("alert", { name: "Budget stop" });
    expect(alert.textContent).toContain("Budget stop: nothing was sent. The request needs 40 tokens, over the limit of 12.");
    expect(alert.textContent).toContain("Raise the token budget or the context window in the Pipeline tab");
  });

  it("shows an upstream 429 with its retry-after, then retries with an empty body", async () => {
    const failed = {
      ...WRITTEN,
      status: "error" as const,
      exchangeId: "x1",
      error: {
        source: "upstream" as const,
        status: 429,
        type: "requests",
        code: "rate_limit_exceeded",
        message: "Rate limit reached.",
        body: null,
        retryAfter: 0,
        headers: { "retry-after": "0" },
      },
    };
    const { composer, calls } = setup([
      () => streamResponse([sse("turn-recorded", { recorded: [] }), sse("error", failed)]),
      () => streamResponse([sse("turn-recorded", { recorded: [] }), sse("done", done(2, { role: "assistant", content: "Back." }))]),
    ]);
    await userEvent.type(composer(), "Hello{Enter}");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("The upstream answered 429 (rate_limit_exceeded): Rate limit reached.");
    expect(alert.textContent).toContain("Your turn is recorded; Retry asks the model again. The upstream is rate limiting: wait, then retry.");
    await userEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(calls.at(-1)!.body).toEqual({ stream: true }));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });

  it("counts down a retry-after before Retry is possible", async () => {
    const failed = {
      ...WRITTEN,
      status: "error" as const,
      exchangeId: "x1",
      error: { source: "upstream" as const, status: 429, type: "requests", code: null, message: "Slow down.", body: null, retryAfter: 30, headers: {} },
    };
    const { composer } = setup([() => streamResponse([sse("turn-recorded", { recorded: [] }), sse("error", failed)])]);
    await userEvent.type(composer(), "Hello{Enter}");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/Retry in (30|29) s\./);
    expect(within(alert).getByRole("button", { name: "Retry" }).hasAttribute("disabled")).toBe(true);
  });

  it("without an upstream: says so, blocks the composer, and configures one with a write-only key", async () => {
    const { composer, calls } = setup([], { view: UNCONFIGURED });
    await waitFor(() => expect(screen.getByLabelText("Upstream status").textContent).toContain("No upstream configured"));
    expect(composer().hasAttribute("disabled")).toBe(true);
    await userEvent.click(screen.getByRole("button", { name: "Configure upstream" }));
    const form = screen.getByRole("form", { name: "Upstream settings" });
    expect(within(form).getByLabelText("API key state").textContent).toContain("Key not set");
    await userEvent.type(within(form).getByLabelText("Base URL"), "http://127.0.0.1:4010/v1");
    await userEvent.type(within(form).getByLabelText("API key"), "sk-test-abcdefgh9876");
    await userEvent.click(within(form).getByRole("button", { name: "Save upstream" }));
    await waitFor(() => expect(screen.queryByRole("form", { name: "Upstream settings" })).toBeNull());
    expect(calls.find((call) => call.method === "PUT")!.body).toEqual({
      baseUrl: "http://127.0.0.1:4010/v1",
      apiKey: "sk-test-abcdefgh9876",
      timeoutMs: 600_000,
    });
    expect(screen.getByLabelText("Upstream status").textContent).toContain("key …9876");
    expect(composer().hasAttribute("disabled")).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: "Upstream settings" }));
    expect((within(screen.getByRole("form", { name: "Upstream settings" })).getByLabelText("API key") as HTMLInputElement).value).toBe("");
  });

  it("shows a refusal from the route (409 not configured) with the way to configure", async () => {
    const refusal = () =>
      Response.json({ error: { code: "upstream_not_configured", message: "no upstream model is configured: save a base URL" } }, { status: 409 });
    const { composer } = setup([refusal]);
    await userEvent.type(composer(), "Hello{Enter}");
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("no upstream model is configured");
    expect(within(alert).getByRole("button", { name: "Configure upstream" })).toBeTruthy();
  });

  it("stops a streaming reply: the request is aborted and Retry is offered", async () => {
    let calls: { signal?: AbortSignal | null }[] = [];
    // Like the browser's fetch: aborting the request errors its body.
    const aborted = () =>
      new Promise<void>((_, reject) => {
        const signal = calls.at(-1)!.signal!;
        if (signal.aborted) reject(new DOMException("aborted", "AbortError"));
        signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
      });
    const chat = () =>
      streamResponse([sse("turn-recorded", { recorded: [] }), sse("delta", { type: "text", text: "Once" }), "never"], async (index) =>
        index === 2 ? aborted() : undefined,
      );
    const scripted = setup([chat]);
    calls = scripted.calls;
    await userEvent.type(scripted.composer(), "Tell a story{Enter}");
    await waitFor(() => expect(screen.getByRole("log", { name: "Assistant reply" }).textContent).toContain("Once"));
    await userEvent.click(screen.getByRole("button", { name: "Stop" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("stopped: the turn is recorded, the reply is not");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeTruthy();
  });
});
