import { describe, expect, it, vi } from "vitest";
import { createConversation } from "@/lib/db";
import { getLiveBus, type LiveEvent } from "@/lib/live";
import { SseParser } from "@/lib/upstream";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness } from "./support/harness";

/** An EventSource-like reader of a live endpoint: events parsed as they arrive. */
async function subscribe(url: string) {
  const aborter = new AbortController();
  const response = await fetch(url, { signal: aborter.signal, headers: { accept: "text/event-stream" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const parser = new SseParser();
  const events: { name: string | null; event: LiveEvent }[] = [];
  let raw = "";
  const decoder = new TextDecoder();
  async function readUntil(done: () => boolean): Promise<void> {
    while (!done()) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error("the live stream ended");
      raw += decoder.decode(value, { stream: true });
      for (const message of parser.push(value)) events.push({ name: message.event, event: JSON.parse(message.data) as LiveEvent });
    }
  }
  await readUntil(() => raw.includes(": subscribed"));
  return {
    events,
    /** Reads until an event named `name` has arrived `count` times. */
    until: (name: string, count = 1) => readUntil(() => events.filter((entry) => entry.name === name).length >= count),
    close: () => aborter.abort(),
  };
}

describe.each(TEST_PROVIDERS)("proxy: live events over SSE (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("streams a conversation's new turns, forks and exchanges to an open tab as they are recorded: a slow model's request before its answer", async () => {
    const { conversation } = await createConversation(test.db, { title: "watched", source: "proxy", recordKey: "watched" });
    const tab = await subscribe(`${harness.server.url}/api/live/conversations/${conversation.id}`);
    const agent = harness.agent("watched");
    // Slower than RECORD_REQUEST_AFTER_MS: the request's turn is placed while the model thinks.
    harness.fake.enqueue({ content: "echo: first", delayMs: 600 });
    await agent.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "first" }] });
    await tab.until("exchange-recorded");

    expect(tab.events.map((entry) => entry.name)).toEqual(["conversation-updated", "exchange-started", "conversation-updated", "exchange-recorded"]);
    expect(tab.events.every((entry) => entry.name === entry.event.type && entry.event.conversationId === conversation.id)).toBe(true);
    const [turns, started, reply, recorded] = tab.events.map((entry) => entry.event);
    expect(turns).toMatchObject({ created: false, appended: { branchLength: 1, messages: [{ position: 0, message: { role: "user", content: "first" } }] } });
    expect(started).toMatchObject({ exchange: { status: null, requestMessages: 1, sentMessages: null, model: "fake-gpt" } });
    expect(reply).toMatchObject({ appended: { branchLength: 2, messages: [{ position: 1, message: { role: "assistant", content: "echo: first" } }] } });
    expect(recorded).toMatchObject({
      exchange: { id: started.type === "exchange-started" ? started.exchange.id : "", status: 200, streamed: false, finishReason: "stop", error: null },
    });
    if (recorded.type === "exchange-recorded" && turns.type === "conversation-updated") {
      expect(recorded.exchange.replyBranchId).toBe(turns.appended?.branchId);
      expect(recorded.exchange.usage).toMatchObject({ total_tokens: expect.any(Number) });
    }

    // A diverging request shows up as a fork (after the opening turn: another opening is another run, P-S3).
    await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        { role: "user", content: "first" },
        { role: "assistant", content: "an edited answer" },
        { role: "user", content: "second" },
      ],
    });
    await tab.until("exchange-recorded", 2);
    const fork = tab.events.find((entry) => entry.name === "branch-created")?.event;
    expect(fork).toMatchObject({ branch: { forkPosition: 1, parentId: turns.type === "conversation-updated" ? turns.appended?.branchId : "" } });
    tab.close();
  });

  it("places a call answered before its request was placed in one write: its turns and the reply arrive together", async () => {
    const { conversation } = await createConversation(test.db, { title: "quick", source: "proxy", recordKey: "quick" });
    const tab = await subscribe(`${harness.server.url}/api/live/conversations/${conversation.id}`);
    const agent = harness.agent("quick");
    await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "fast" },
      ],
    });
    await tab.until("exchange-recorded");

    expect(tab.events.map((entry) => entry.name)).toEqual(["conversation-updated", "exchange-started", "exchange-recorded"]);
    const [turns, started, recorded] = tab.events.map((entry) => entry.event);
    expect(turns).toMatchObject({
      appended: {
        branchLength: 3,
        messages: [
          { position: 0, message: { role: "system", content: "Be brief." } },
          { position: 1, message: { role: "user", content: "fast" } },
          { position: 2, message: { role: "assistant", content: "echo: fast" } },
        ],
      },
    });
    expect(started).toMatchObject({ exchange: { status: null, requestMessages: 2 } });
    if (recorded.type === "exchange-recorded" && turns.type === "conversation-updated") {
      expect(recorded.exchange).toMatchObject({ status: 200, finishReason: "stop", replyBranchId: turns.appended?.branchId });
    }
    // The reply carries the answer's metadata, the request's turns their own.
    const rows = await test.db.message.findMany({ where: { branch: { conversationId: conversation.id } }, orderBy: { position: "asc" } });
    expect(rows.map((row) => JSON.parse(row.metadata ?? "{}").finishReason ?? null)).toEqual([null, null, "stop"]);
    expect(await test.db.exchange.count({ where: { conversationId: conversation.id } })).toBe(1);
    tab.close();
  });

  it("tells the conversation list about conversations created by new agents", async () => {
    const list = await subscribe(`${harness.server.url}/api/live/conversations`);
    await harness.agent("newcomer").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hello" }] });
    await list.until("exchange-recorded");
    const created = list.events.find((entry) => entry.name === "conversation-updated")?.event;
    expect(created).toMatchObject({ created: true, conversation: { recordKey: "newcomer", source: "proxy" } });
    list.close();
  });

  it("drops a tab's subscription when it disconnects", async () => {
    // Tabs of earlier tests finish closing first.
    await vi.waitFor(() => expect(getLiveBus().listenerCount()).toBe(0));
    const { conversation } = await createConversation(test.db, { title: "closing", source: "proxy" });
    const tab = await subscribe(`${harness.server.url}/api/live/conversations/${conversation.id}`);
    expect(getLiveBus().listenerCount(conversation.id)).toBe(1);
    tab.close();
    await vi.waitFor(() => expect(getLiveBus().listenerCount(conversation.id)).toBe(0));
    expect(getLiveBus().listenerCount()).toBe(0);
  });
});
