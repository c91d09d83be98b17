import { describe, expect, it } from "vitest";
import { createProxyCall, endProxyCallById, getExchangesByConversationId, getUnplacedProxyCalls } from "@/lib/db";
import { getProxyRecorder } from "@/lib/proxy";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness } from "./support/harness";

// PX-D5 in lib/proxy/README.md: every call is journaled before the agent is answered, and what a
// crash left journaled is placed into its conversation by the next run.

describe.each(TEST_PROVIDERS)("proxy: the journal (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[PX-D5] journals every call, whole or streamed, and once it is placed its exchange (same id) holds it and the journal row goes", async () => {
    const agent = harness.agent("journaled");
    await agent.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "one" }] });
    const stream = await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        { role: "user", content: "one" },
        { role: "assistant", content: "echo: one" },
        { role: "user", content: "two" },
      ],
      stream: true,
    });
    for await (const chunk of stream) void chunk;
    await harness.recorded();

    expect(await test.db.proxyCall.count()).toBe(0);
    const { exchanges } = await recordedFor(test.db, "journaled");
    expect(exchanges.map((exchange) => [exchange.status, exchange.streamed])).toEqual([
      [200, false],
      [200, true],
    ]);
    expect(exchanges[1].response).toMatchObject({ choices: [{ message: { content: "echo: two" } }] });
  });

  it("[PX-D5] places what an earlier run journaled but never placed, once, also a call cut mid-way", async () => {
    // Two calls an earlier process journaled before it was killed: one answered, one cut before its answer.
    const messages = [{ role: "user", content: "from before the crash" }];
    const answered = await createProxyCall(test.db, {
      key: "survivor",
      request: { model: "fake-gpt", messages },
      details: { messages, tools: null, sentMessages: null, pipeline: null },
    });
    const completion = { choices: [{ index: 0, message: { role: "assistant", content: "answered before the crash" }, finish_reason: "stop" }] };
    await endProxyCallById(test.db, answered.id, {
      status: 200,
      response: completion,
      error: null,
      durationMs: 12,
      outcome: {
        completion: { reply: { role: "assistant", content: "answered before the crash" }, model: "fake-gpt", finishReason: "stop", usage: null },
        reloads: null,
      },
    });
    const cutMessages = [...messages, { role: "assistant", content: "answered before the crash" }, { role: "user", content: "and then?" }];
    await createProxyCall(test.db, {
      key: "survivor",
      request: { model: "fake-gpt", messages: cutMessages },
      details: { messages: cutMessages, tools: null, sentMessages: null, pipeline: null },
    });
    await test.db.proxyCall.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });

    const journal = await test.db.proxyCall.findMany();
    expect(await getProxyRecorder().recover(test.db)).toBe(2);
    expect(await getProxyRecorder().recover(test.db)).toBe(0);
    expect(await getUnplacedProxyCalls(test.db)).toEqual([]);

    const { conversation, branches, histories } = await recordedFor(test.db, "survivor");
    expect(branches).toHaveLength(1);
    expect(histories.get(branches[0].id)).toEqual(cutMessages);
    const exchanges = await getExchangesByConversationId(test.db, conversation.id);
    expect(exchanges.map((exchange) => [exchange.status, exchange.error])).toEqual([
      [200, null],
      [null, { source: "proxy", type: "interrupted", message: expect.any(String) }],
    ]);
    // A replay (a crash after placing, before the row went) finds the placed call's exchange and turns: nothing is written twice.
    await test.db.proxyCall.createMany({ data: journal });
    expect(await getProxyRecorder().recover(test.db)).toBe(2);
    expect(await test.db.proxyCall.count()).toBe(0);
    expect(await getExchangesByConversationId(test.db, conversation.id)).toHaveLength(2);
    expect((await recordedFor(test.db, "survivor")).histories.get(branches[0].id)).toEqual(cutMessages);
  });

  it("[PX-C1] journals each call as a delta against the agent's previous one, read whole from the journal or from the exchange it became", async () => {
    const history = (turns: number) =>
      Array.from({ length: turns * 2 - 1 }, (_, index) => ({ role: index % 2 === 0 ? "user" : "assistant", content: `turn ${index} ${"x".repeat(2_000)}` }));
    const details = { protocol: "openai-chat", tools: null, sentMessages: null, pipeline: null };
    const first = await createProxyCall(test.db, { key: "growing", request: { model: "fake-gpt", messages: history(1) }, details });
    const second = await createProxyCall(test.db, {
      key: "growing",
      request: { model: "fake-gpt", messages: history(2) },
      details,
      previous: { id: first.id, request: first.request, sent: null },
    });
    // Stored: the first whole, the second only what it added; both read back whole.
    const rows = await test.db.proxyCall.findMany({ orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => row.requestBaseId)).toEqual([null, first.id]);
    expect(rows[1].request).not.toContain("turn 0 ");
    expect(rows[1].request).toContain("turn 2 ");
    await test.db.proxyCall.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });
    expect((await getUnplacedProxyCalls(test.db)).map((entry) => entry.request)).toEqual([first.request, second.request]);
    expect(await getProxyRecorder().recover(test.db)).toBe(2);
    expect(await test.db.proxyCall.count()).toBe(0);

    // The second call is placed and out of the journal: the third is read against the exchange that has its id.
    const third = await createProxyCall(test.db, {
      key: "growing",
      request: { model: "fake-gpt", messages: history(3) },
      details,
      previous: { id: second.id, request: second.request, sent: null },
    });
    expect((await test.db.proxyCall.findUniqueOrThrow({ where: { id: third.id } })).requestBaseId).toBe(second.id);
    await test.db.proxyCall.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });
    expect((await getUnplacedProxyCalls(test.db)).map((entry) => entry.request)).toEqual([third.request]);
    expect(await getProxyRecorder().recover(test.db)).toBe(1);
    const { histories, branches } = await recordedFor(test.db, "growing");
    expect(histories.get(branches[0].id)?.map((message) => message.content)).toEqual(history(3).map((message) => message.content));
  });
});
