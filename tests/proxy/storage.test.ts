import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { compactStoredRequests, findConversationByRecordKey, getExchangeById, getExchangesByConversationId } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { decodedRequests, exportedLines } from "@/tests/support/session-file";
import { useProxyHarness } from "./support/harness";

const CALLS = 200;
const TOOLS: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: "function",
    function: { name: "search", description: "Searches the notes. ".repeat(40), parameters: { type: "object", properties: { query: { type: "string" } } } },
  },
];

describe.each(TEST_PROVIDERS)("proxy: what a call stores (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("[PX-D6.3] [PX-D6.4] [PX-D6.5] 200 calls of one growing conversation store bytes linear in their new turns and read back as sent", {
    timeout: 120_000,
  }, async () => {
    const agent = harness.agent("grower");
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "system", content: "You keep notes." }];
    const sent: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming[] = [];
    const newTurnBytes: number[] = [];
    for (let call = 1; call <= CALLS; call += 1) {
      const question: OpenAI.Chat.ChatCompletionMessageParam = { role: "user", content: `note ${call}: ${"detail ".repeat(20)}` };
      messages.push(question);
      const body = { model: "fake-gpt", messages: structuredClone(messages), tools: TOOLS, temperature: 0.3 };
      sent.push(body);
      const completion = await agent.chat.completions.create(body);
      const reply = completion.choices[0].message;
      const answer: OpenAI.Chat.ChatCompletionMessageParam = { role: "assistant", content: reply.content };
      // What this call added: its question and the previous call's answer.
      newTurnBytes.push(JSON.stringify(messages.slice(call === 1 ? 0 : -2)).length);
      messages.push(answer);
    }
    await harness.recorded();
    const conversation = (await findConversationByRecordKey(test.db, "grower"))!;
    const rows = await test.db.exchange.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows).toHaveLength(CALLS);
    let stored = 0;
    let whole = 0;
    rows.forEach((row, index) => {
      stored += row.request.length;
      whole += JSON.stringify(sent[index]).length;
      if (index === 0) expect(row.requestBaseId).toBeNull();
      else {
        expect(row.requestBaseId).toBe(rows[index - 1].id);
        // The new turns and a fixed envelope: the tools are not repeated.
        expect(row.request.length).toBeLessThanOrEqual(newTurnBytes[index] + 200);
      }
    });
    expect(stored * 40).toBeLessThan(whole);
    // PX-D5.3: placed calls leave the journal, so it does not keep each whole request a second time.
    expect(await test.db.proxyCall.count()).toBe(0);
    const records = await getExchangesByConversationId(test.db, conversation.id);
    expect(records.map((record) => record.request)).toEqual(sent);
    expect((await getExchangeById(test.db, rows[CALLS - 1].id)).request).toEqual(sent[CALLS - 1]);
    expect(decodedRequests(await exportedLines(test.db, conversation.id))).toEqual(sent);
  });

  it("[PX-D6.4] a row stored whole (as before deltas) reads as it is, next to deltas", async () => {
    const agent = harness.agent("mixed");
    const first = { model: "fake-gpt", messages: [{ role: "user" as const, content: "one" }] };
    await agent.chat.completions.create(first);
    const second = {
      model: "fake-gpt",
      messages: [...first.messages, { role: "assistant" as const, content: "echo: one" }, { role: "user" as const, content: "two" }],
    };
    await agent.chat.completions.create(second);
    await harness.recorded();
    const conversation = (await findConversationByRecordKey(test.db, "mixed"))!;
    const rows = await test.db.exchange.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.map((row) => row.requestBaseId)).toEqual([null, rows[0].id]);
    await test.db.exchange.update({ where: { id: rows[1].id }, data: { request: JSON.stringify(second), requestBaseId: null } });
    expect((await getExchangesByConversationId(test.db, conversation.id)).map((record) => record.request)).toEqual([first, second]);
  });

  it("[PX-D6.5] a call placed on another branch than its agent's previous call is stored whole", async () => {
    const agent = harness.agent("forker");
    const opening = [
      { role: "user" as const, content: "one" },
      { role: "assistant" as const, content: "echo: one" },
    ];
    await agent.chat.completions.create({ model: "fake-gpt", messages: [...opening, { role: "user" as const, content: "two" }] });
    await agent.chat.completions.create({ model: "fake-gpt", messages: [...opening, { role: "user" as const, content: "two, edited" }] });
    await harness.recorded();
    const conversation = (await findConversationByRecordKey(test.db, "forker"))!;
    const rows = await test.db.exchange.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows).toHaveLength(2);
    expect(rows[1].branchId).not.toBe(rows[0].branchId);
    expect(rows.map((row) => row.requestBaseId)).toEqual([null, null]);
  });
  it("[PX-D6.6] requests stored whole before deltas become deltas on their branch, read back the same, once", { timeout: 120_000 }, async () => {
    // Two agents' growing conversations, and one call on a fork: recorded, then stored whole again as rows from before deltas were.
    const sent = new Map<string, unknown[]>();
    for (const key of ["old-a", "old-b"]) {
      const agent = harness.agent(key);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "system", content: `Agent ${key}. ${"Policy text. ".repeat(30)}` }];
      for (let call = 1; call <= 30; call += 1) {
        messages.push({ role: "user", content: `${key} question ${call}: ${"detail ".repeat(15)}` });
        const body = { model: "fake-gpt", messages: structuredClone(messages), tools: TOOLS };
        sent.set(key, [...(sent.get(key) ?? []), body]);
        const reply = (await agent.chat.completions.create(body)).choices[0].message;
        messages.push({ role: "assistant", content: reply.content });
      }
    }
    await harness.agent("old-a").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "a fork of its own" }] });
    await harness.recorded();
    const conversations = await Promise.all(["old-a", "old-b"].map(async (key) => (await findConversationByRecordKey(test.db, key))!));
    const before = await Promise.all(conversations.map((conversation) => getExchangesByConversationId(test.db, conversation.id)));
    for (const records of before)
      for (const record of records)
        await test.db.exchange.update({ where: { id: record.id }, data: { request: JSON.stringify(record.request), requestBaseId: null } });
    const whole = (await test.db.exchange.findMany({ select: { request: true } })).reduce((sum, row) => sum + row.request.length, 0);

    const report = await compactStoredRequests(test.db);
    // Every row but the first of each branch: 29 + 29 (old-a's fork is the first of its branch).
    expect(report.rewritten).toBe(58);
    const rows = await test.db.exchange.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    const stored = rows.reduce((sum, row) => sum + row.request.length, 0);
    expect(whole - stored).toBe(report.savedCharacters);
    expect(stored * 5).toBeLessThan(whole);
    for (const row of rows.filter((row) => row.requestBaseId !== null)) {
      const base = rows.find((other) => other.id === row.requestBaseId)!;
      expect([base.branchId, base.createdAt <= row.createdAt]).toEqual([row.branchId, true]);
    }
    // Every reader gets the same requests back.
    const after = await Promise.all(conversations.map((conversation) => getExchangesByConversationId(test.db, conversation.id)));
    expect(after.map((records) => records.map((record) => record.request))).toEqual(before.map((records) => records.map((record) => record.request)));
    expect(after[1].map((record) => record.request)).toEqual(sent.get("old-b"));
    expect(decodedRequests(await exportedLines(test.db, conversations[0].id))).toEqual(before[0].map((record) => record.request));
    // A second run finds every branch down to its one whole first request: it reads no exchange row.
    const reads: string[] = [];
    const counted = test.db.$extends({
      query: {
        exchange: {
          $allOperations: ({ operation, args, query }) => {
            reads.push(operation);
            return query(args);
          },
        },
      },
    }) as unknown as typeof test.db;
    expect(await compactStoredRequests(counted)).toEqual({ rewritten: 0, savedCharacters: 0 });
    expect(reads).toEqual(["groupBy"]);
  });
});
