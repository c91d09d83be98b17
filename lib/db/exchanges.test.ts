import { describe, expect, it } from "vitest";
import { countingClient } from "@/tests/support/counting-client";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import { NotFoundError } from "./errors";
import { createExchange, getExchangeById, getExchangesByConversationId, getExchangeWithEarlierById, updateExchangeById, writeExchangeById } from "./exchanges";

const request = { model: "gpt-4o", messages: [{ role: "user", content: "hi" }], stream: true };

describe.each(TEST_PROVIDERS)("exchanges (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("opens an exchange in one operation when the caller names the branch's conversation, in two when the branch is read for it", async () => {
    const { conversation, branch } = await seedConversation(test.db, 1);
    const counting = countingClient(test.db);
    const named = await createExchange(counting.db, branch.id, { request, conversationId: conversation.id });
    expect(counting.count().operations).toBe(1);
    const read = await createExchange(counting.db, branch.id, { request });
    expect(counting.count().operations).toBe(3);
    expect([named.conversationId, read.conversationId]).toEqual([conversation.id, conversation.id]);
  });

  it("records a call as it starts and completes it with the response", async () => {
    const { conversation, branch } = await seedConversation(test.db, 1);
    const started = await createExchange(test.db, branch.id, { request, sent: { ...request, messages: [] }, streamed: true });
    expect(started).toMatchObject({
      conversationId: conversation.id,
      branchId: branch.id,
      request,
      sent: { ...request, messages: [] },
      response: null,
      status: null,
      error: null,
      streamed: true,
      durationMs: null,
    });
    const response = { id: "chatcmpl-1", choices: [{ message: { role: "assistant", content: "hello" } }] };
    const done = await updateExchangeById(test.db, started.id, { response, status: 200, durationMs: 842 });
    expect(done).toMatchObject({ response, status: 200, durationMs: 842, sent: { ...request, messages: [] }, error: null });
    expect(await getExchangeById(test.db, started.id)).toEqual(done);
  });

  it("records a failed call's error", async () => {
    const { branch } = await seedConversation(test.db, 1);
    const started = await createExchange(test.db, branch.id, { request });
    const failed = await updateExchangeById(test.db, started.id, { status: 429, error: { type: "rate_limit", message: "slow down" } });
    expect(failed).toMatchObject({ status: 429, error: { type: "rate_limit", message: "slow down" }, response: null, streamed: false });
  });

  it("lists a conversation's exchanges oldest first, optionally for one branch", async () => {
    const { conversation, branch } = await seedConversation(test.db, 2);
    const fork = await forkBranch(test.db, branch.id, { position: 1 });
    const first = await createExchange(test.db, branch.id, { request: { n: 1 } });
    const second = await createExchange(test.db, fork.id, { request: { n: 2 } });
    const third = await createExchange(test.db, branch.id, { request: { n: 3 } });
    const { branch: elsewhere } = await seedConversation(test.db, 1);
    await createExchange(test.db, elsewhere.id, { request: { n: 4 } });
    expect((await getExchangesByConversationId(test.db, conversation.id)).map((exchange) => exchange.id)).toEqual([first.id, second.id, third.id]);
    expect((await getExchangesByConversationId(test.db, conversation.id, { branchId: fork.id })).map((exchange) => exchange.id)).toEqual([second.id]);
  });

  it("fails with NotFoundError for unknown branches, exchanges and conversations", async () => {
    await expect(createExchange(test.db, "missing", { request })).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(updateExchangeById(test.db, "missing", { status: 200 })).rejects.toSatisfy(
      (error: unknown) => NotFoundError.isInstance(error) && error.resource === "exchange",
    );
    await expect(writeExchangeById(test.db, "missing", { status: 200 })).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getExchangesByConversationId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("[PX-D6.4] a request stored against the previous call reads back whole from every reader; one that shares no history is stored whole", async () => {
    const { conversation, branch } = await seedConversation(test.db, 1);
    const first = await createExchange(test.db, branch.id, { request });
    const grown = { ...request, messages: [...request.messages, { role: "assistant", content: "hello" }, { role: "user", content: "again" }] };
    const second = await createExchange(test.db, branch.id, { request: grown, previous: { id: first.id, request } });
    const other = { model: "gpt-4o", messages: [{ role: "user", content: "unrelated" }] };
    const third = await createExchange(test.db, branch.id, { request: other, previous: { id: second.id, request: grown } });
    const rows = await test.db.exchange.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.map((row) => row.requestBaseId)).toEqual([null, first.id, null]);
    expect(JSON.parse(rows[1].request)).toMatchObject({ kept: 1, same: ["model", "stream"] });
    expect(second.request).toEqual(grown);
    // The record holds the request as given: a growing session's is not written out whole and read back to make it.
    expect(second.request).toBe(grown);
    expect((await getExchangeById(test.db, second.id)).request).toEqual(grown);
    expect((await getExchangesByConversationId(test.db, conversation.id)).map((exchange) => exchange.request)).toEqual([request, grown, other]);
    const { exchange, earlier } = await getExchangeWithEarlierById(test.db, third.id, 2);
    expect([...earlier, exchange].map((record) => record.request)).toEqual([request, grown, other]);
    await writeExchangeById(test.db, second.id, { status: 200, durationMs: 5 });
    expect(await getExchangeById(test.db, second.id)).toMatchObject({ request: grown, status: 200, durationMs: 5 });
  });

  it("[PX-D6.8] a body sent after the pipeline is stored against the previous call's and reads back whole; one written again is whole", async () => {
    const { conversation, branch } = await seedConversation(test.db, 1);
    const sentFirst = { ...request, max_tokens: 10 };
    const first = await createExchange(test.db, branch.id, { request, sent: sentFirst });
    const grown = { ...request, messages: [...request.messages, { role: "assistant", content: "hello" }, { role: "user", content: "again" }] };
    const sentGrown = { ...grown, max_tokens: 10 };
    const second = await createExchange(test.db, branch.id, { request: grown, sent: sentGrown, previous: { id: first.id, request, sent: sentFirst } });
    const third = await createExchange(test.db, branch.id, { request: grown, previous: { id: second.id, request: grown, sent: sentGrown } });
    const rows = await test.db.exchange.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(rows.map((row) => row.sentBaseId)).toEqual([null, first.id, null]);
    expect(JSON.parse(rows[1].sent!)).toMatchObject({ kept: 1 });
    expect(second.sent).toEqual(sentGrown);
    expect((await getExchangesByConversationId(test.db, conversation.id)).map((exchange) => exchange.sent)).toEqual([sentFirst, sentGrown, null]);
    expect(third.sent).toBeNull();
    await updateExchangeById(test.db, second.id, { sent: sentFirst });
    expect((await test.db.exchange.findUniqueOrThrow({ where: { id: second.id } })).sentBaseId).toBeNull();
    expect((await getExchangeById(test.db, second.id)).sent).toEqual(sentFirst);
  });
});
