import { describe, expect, it } from "vitest";
import { extractiveSummarizer, type Message } from "@/lib/context";
import {
  createConversation,
  getCheckpointsByBranchId,
  getExchangesByConversationId,
  getHistoryByBranchId,
  getSummariesByBranchId,
  updateConversationById,
  type Database,
} from "@/lib/db";
import { POST as chatRoute } from "@/app/api/branches/[branchId]/chat/route";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { AIRLINE_TOOLS, assistant, user } from "@/tests/support/memory-fixtures";
import { isSummaryRequest, outcomeOf, postChat, UPSTREAM_KEY, useRecorderHarness } from "@/tests/support/recorder-harness";

const SYSTEM = "You are an airline support agent.";

async function conversation(db: Database, settings: Record<string, unknown> = {}, messages: Message[] = [{ role: "system", content: SYSTEM }]) {
  const { conversation: record, branch } = await createConversation(db, {
    title: "recorder",
    source: "test",
    settings: { mode: "pilot", ...settings },
    tools: AIRLINE_TOOLS,
    messages: messages.map((message) => ({ message, tokens: 1 })),
  });
  return { conversationId: record.id, branchId: branch.id };
}

const roles = async (db: Database, branchId: string) => (await getHistoryByBranchId(db, branchId)).map((record) => record.message.role);

describe.each(TEST_PROVIDERS)("POST /api/branches/[branchId]/chat (%s)", (provider) => {
  const harness = useRecorderHarness(provider);

  it("records a streamed turn: the user message, the reply streamed as deltas, then the reply, in order, published live", async () => {
    const { conversationId, branchId } = await conversation(harness.db);
    harness.fake.enqueue({ content: "Your reservation 8JX2WO has one checked bag.", chunkSize: 5, chunkDelayMs: 2 });
    const answer = await postChat(branchId, { userTurn: "How many bags on 8JX2WO?" });

    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/event-stream");
    const names = answer.events.map((event) => event.event);
    expect(names[0]).toBe("turn-recorded");
    expect(names.at(-1)).toBe("done");
    const deltas = answer.events.filter((event) => event.event === "delta").map((event) => event.data);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((delta) => delta.text).join("")).toBe("Your reservation 8JX2WO has one checked bag.");
    expect(answer.events[0].data.recorded.map((record: any) => record.message)).toEqual([{ role: "user", content: "How many bags on 8JX2WO?" }]);

    const done = outcomeOf(answer);
    expect(done).toMatchObject({
      status: "ok",
      finishReason: "stop",
      pendingToolCalls: [],
      prompt: { status: "ok", messages: 2 },
      summarizer: { kind: "upstream", calls: 0 },
    });
    expect(done.message).toMatchObject({
      position: 2,
      message: { role: "assistant", content: "Your reservation 8JX2WO has one checked bag." },
      metadata: { recorder: "chat" },
    });
    expect(done.recorded.map((record: any) => record.position)).toEqual([1, 2]);

    const history = await getHistoryByBranchId(harness.db, branchId);
    expect(history.map((record) => [record.position, record.message.role, record.message.content])).toEqual([
      [0, "system", SYSTEM],
      [1, "user", "How many bags on 8JX2WO?"],
      [2, "assistant", "Your reservation 8JX2WO has one checked bag."],
    ]);
    // What was sent is the assembled prompt, with the conversation's model, tools and the configured key.
    const [sent] = harness.chatRequests();
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(sent.body).toMatchObject({
      model: "gpt-4o",
      stream: true,
      tools: AIRLINE_TOOLS,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "How many bags on 8JX2WO?" },
      ],
    });

    const live = harness.events.filter((event) => event.conversationId === conversationId).map((event) => event.type);
    expect(live).toEqual(["conversation-updated", "exchange-started", "conversation-updated", "exchange-recorded"]);
    const [exchange] = await getExchangesByConversationId(harness.db, conversationId);
    expect(exchange).toMatchObject({ branchId, status: 200, streamed: true, error: null });
  });

  it("continues a turn with tool results pasted by hand, answering the reply's pending calls", async () => {
    const { branchId } = await conversation(harness.db);
    harness.fake.enqueue({ content: null, toolCalls: [{ id: "call_lookup", name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' }] });
    const first = await postChat(branchId, { userTurn: "Look up 8JX2WO please." });
    const calling = outcomeOf(first);
    expect(calling).toMatchObject({ status: "ok", finishReason: "tool_calls" });
    expect(calling.pendingToolCalls).toEqual([
      { id: "call_lookup", type: "function", function: { name: "get_reservation_details", arguments: '{"reservation_id":"8JX2WO"}' } },
    ]);
    const toolDeltas = first.events.filter((event) => event.event === "delta" && event.data.type === "tool-call").map((event) => event.data);
    expect(toolDeltas[0]).toMatchObject({ index: 0, id: "call_lookup", name: "get_reservation_details" });
    expect(toolDeltas.map((delta) => delta.arguments).join("")).toBe('{"reservation_id":"8JX2WO"}');

    // A user turn cannot follow an unanswered call, nor can a result for another call: 422, nothing written.
    const early = await postChat(branchId, { userTurn: "Hello?" });
    expect(early.status).toBe(422);
    expect(early.body.error).toMatchObject({ code: "tool_results_mismatch", issues: [{ path: "toolResults" }] });
    const wrong = await postChat(branchId, { toolResults: [{ tool_call_id: "call_other", content: "{}" }] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.issues).toEqual([
      { path: "toolResults[0].tool_call_id", message: expect.stringContaining("pending: 'call_lookup' (get_reservation_details)") },
    ]);
    expect(await roles(harness.db, branchId)).toEqual(["system", "user", "assistant"]);

    harness.fake.enqueue({ content: "8JX2WO flies Boston to Seattle on May 16." });
    const second = await postChat(branchId, {
      toolResults: [{ tool_call_id: "call_lookup", content: { reservation_id: "8JX2WO", origin: "BOS", destination: "SEA" } }],
    });
    expect(outcomeOf(second)).toMatchObject({
      status: "ok",
      message: { position: 4, message: { role: "assistant", content: "8JX2WO flies Boston to Seattle on May 16." } },
    });
    const history = await getHistoryByBranchId(harness.db, branchId);
    expect(history[3].message).toEqual({
      role: "tool",
      tool_call_id: "call_lookup",
      content: '{"reservation_id":"8JX2WO","origin":"BOS","destination":"SEA"}',
    });
    const sent = harness.chatRequests()[1].body!.messages as Message[];
    expect(sent.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
  });

  it("writes a summary and a checkpoint when a turn crosses the threshold, with the upstream's model summarizing", async () => {
    const { branchId } = await conversation(harness.db, { summaryThreshold: 4 });
    for (const text of ["one", "two"]) expect(outcomeOf(await postChat(branchId, { userTurn: `Question ${text} about baggage?` })).status).toBe("ok");
    expect(await getCheckpointsByBranchId(harness.db, branchId)).toHaveLength(0);

    // The fifth raw message makes the branch due: the user turn is recorded, then compacted before the model is asked.
    const third = await postChat(branchId, { userTurn: "Question three about baggage?" });
    const done = outcomeOf(third);
    expect(done.status).toBe("ok");
    expect(done.checkpoints).toEqual([expect.objectContaining({ version: 1, branchId, reason: "threshold", when: "prompt", fromPosition: 0, toPosition: 3 })]);
    expect(done.summarizer).toEqual({ kind: "upstream", calls: 1, fallbacks: [] });
    const checkpoints = await getCheckpointsByBranchId(harness.db, branchId);
    expect(checkpoints.map((checkpoint) => checkpoint.version)).toEqual([1]);
    const [summary] = await getSummariesByBranchId(harness.db, branchId);
    expect(summary.text).toBe("UPSTREAM SUMMARY: the user asked about baggage.");
    const [request] = harness.summaryRequests();
    expect(request.body).toMatchObject({ model: "gpt-4o", stream: false });
    expect(JSON.stringify(request.body)).toContain("Question one about baggage?");
    // The request sent after it carries the summary in place of the summarised rounds.
    const sent = JSON.stringify(harness.chatRequests().at(-1)!.body!.messages);
    expect(sent).toContain("UPSTREAM SUMMARY");
    expect(sent).not.toContain("Question one about baggage?");
  });

  it("falls back to the extractive summary when the upstream summarizer fails, and keeps the turn", async () => {
    const { branchId } = await conversation(harness.db, { summaryThreshold: 2 });
    harness.fake.respondWith((request) => (isSummaryRequest(request) ? { kind: "error", status: 500 } : { content: "noted" }));
    for (const text of ["First", "Second"]) expect(outcomeOf(await postChat(branchId, { userTurn: `${text} question?` })).status).toBe("ok");
    const answer = await postChat(branchId, { userTurn: "Third question?" });
    const done = outcomeOf(answer);
    expect(done.status).toBe("ok");
    expect(done.summarizer.kind).toBe("upstream");
    expect(done.summarizer.fallbacks).toEqual([{ reason: expect.stringMatching(/^500 server_error: The server had an error/) }]);
    expect(done.checkpoints).toHaveLength(1);
    expect(harness.summaryRequests()).toHaveLength(1);
    const [summary] = await getSummariesByBranchId(harness.db, branchId);
    const covered = (await getHistoryByBranchId(harness.db, branchId))
      .slice(summary.fromPosition, summary.toPosition)
      .filter((record) => record.message.role !== "system");
    expect(summary.text).toBe(
      await extractiveSummarizer(
        covered.map((record) => record.message),
        { purpose: "conversation" },
      ),
    );
    expect(await roles(harness.db, branchId)).toEqual(["system", "user", "assistant", "user", "assistant", "user", "assistant"]);
  });

  it("stops at the budget deterministically: no upstream call, the turn kept, nothing more written", async () => {
    const { branchId } = await conversation(harness.db, { tokenBudget: 12 });
    const answer = await postChat(branchId, { userTurn: "Please tell me everything about the checked baggage rules on my reservation to Seattle." });
    expect(answer.events.map((event) => event.event)).toEqual(["turn-recorded", "budget-exceeded"]);
    const stop = outcomeOf(answer);
    expect(stop).toMatchObject({ status: "budget_exceeded", budget: 12, prompt: { status: "budget_exceeded", messages: 0 } });
    expect(stop.tokens).toBeGreaterThan(12);
    expect(stop.reason).toMatch(/^the request needs \d+ tokens, \d+ over the token budget of 12/);
    expect(harness.fake.requests).toHaveLength(0);
    expect(await roles(harness.db, branchId)).toEqual(["system", "user"]);
    // The same state gives the same stop, as JSON too.
    const again = await postChat(branchId, { stream: false });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: "budget_exceeded", budget: stop.budget, tokens: stop.tokens, reason: stop.reason, recorded: [] });
    expect(harness.fake.requests).toHaveLength(0);
  });

  it("[E-RB7] stops at the budget on a branch due for compaction without calling the summarizing model or writing a summary", async () => {
    const { conversationId, branchId } = await conversation(harness.db, { summaryThreshold: 2 });
    for (const text of ["First", "Second"]) expect(outcomeOf(await postChat(branchId, { userTurn: `${text} question?` })).status).toBe("ok");
    const calls = harness.fake.requests.length;
    await updateConversationById(harness.db, conversationId, { settings: { mode: "pilot", summaryThreshold: 2, tokenBudget: 12 } });
    const stop = outcomeOf(await postChat(branchId, { userTurn: "Third question, about everything on my reservation to Seattle?" }));
    expect(stop).toMatchObject({ status: "budget_exceeded", budget: 12, checkpoints: [] });
    expect(harness.fake.requests).toHaveLength(calls);
    expect(harness.summaryRequests()).toHaveLength(0);
    expect(await getSummariesByBranchId(harness.db, branchId)).toHaveLength(0);
    expect(await getCheckpointsByBranchId(harness.db, branchId)).toHaveLength(0);
  });

  it("passes upstream errors through as sent (429 with retry-after, 401), keeps the user turn, and answers on retry", async () => {
    const { conversationId, branchId } = await conversation(harness.db);
    harness.fake.enqueue({ kind: "error", status: 429, headers: { "retry-after": "7" } });
    const limited = await postChat(branchId, { userTurn: "Cancel 8JX2WO." });
    expect(limited.events.map((event) => event.event)).toEqual(["turn-recorded", "error"]);
    const failed = outcomeOf(limited);
    expect(failed.error).toMatchObject({
      source: "upstream",
      status: 429,
      type: "requests",
      code: "rate_limit_exceeded",
      retryAfter: 7,
      headers: { "retry-after": "7" },
      body: { error: { code: "rate_limit_exceeded", message: expect.stringContaining("Rate limit reached") } },
    });
    expect(await roles(harness.db, branchId)).toEqual(["system", "user"]);
    const [exchange] = await getExchangesByConversationId(harness.db, conversationId);
    expect(exchange).toMatchObject({ status: 429, error: { status: 429, code: "rate_limit_exceeded" } });

    harness.fake.enqueue({ kind: "error", status: 401 });
    const unauthorized = await postChat(branchId, { stream: false });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.error).toMatchObject({
      code: "upstream_error",
      upstreamCode: "invalid_api_key",
      body: { error: { type: "invalid_request_error" } },
    });

    // A retry (empty body) asks again for the kept turn.
    const retried = outcomeOf(await postChat(branchId, {}));
    expect(retried).toMatchObject({
      status: "ok",
      recorded: [expect.objectContaining({ position: 2 })],
      message: { message: { content: "echo: Cancel 8JX2WO." } },
    });
    expect(await roles(harness.db, branchId)).toEqual(["system", "user", "assistant"]);
  });

  it("reports a dropped stream and an unreachable upstream as its own errors, the turn kept", async () => {
    const { branchId } = await conversation(harness.db);
    harness.fake.enqueue({ kind: "drop", afterChunks: 3, reply: { content: "This answer will be cut off half way through.", chunkSize: 3 } });
    const dropped = outcomeOf(await postChat(branchId, { userTurn: "Hi" }));
    expect(dropped.error).toMatchObject({ source: "recorder", status: 502, type: "stream_dropped" });
    await harness.fake.close();
    const unreachable = await postChat(branchId, { stream: false });
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.error).toMatchObject({
      source: "recorder",
      code: "upstream_unreachable",
      message: expect.stringContaining("cannot reach the upstream"),
    });
    expect(await roles(harness.db, branchId)).toEqual(["system", "user"]);
  });

  it("refuses before writing anything: no upstream (409, how to configure), a turn already running (409), a bad body (400 with paths)", async () => {
    const { branchId } = await conversation(harness.db);
    const saved = process.env.CONTEXT_LAB_UPSTREAM_BASE_URL;
    delete process.env.CONTEXT_LAB_UPSTREAM_BASE_URL;
    const unconfigured = await postChat(branchId, { userTurn: "Hello" });
    process.env.CONTEXT_LAB_UPSTREAM_BASE_URL = saved;
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.error.code).toBe("upstream_not_configured");
    expect(unconfigured.body.error.message).toContain("PUT /api/settings/upstream");
    expect(unconfigured.body.error.message).toContain("CONTEXT_LAB_UPSTREAM_BASE_URL");

    const invalid = await postChat(branchId, { userTurn: "  ", toolResults: [{ content: "x" }], extra: true });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.issues.map((issue: any) => issue.path).sort()).toEqual(["", "toolResults[0].tool_call_id", "userTurn"].sort());

    const nothing = await postChat(branchId, {});
    expect(nothing.status).toBe(422);
    expect(nothing.body.error.code).toBe("nothing_to_answer");

    harness.fake.enqueue({ content: "slow", delayMs: 300 });
    const slow = postChat(branchId, { userTurn: "First" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const busy = await postChat(branchId, { userTurn: "Second" });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe("chat_in_progress");
    expect(outcomeOf(await slow).status).toBe("ok");
    expect(await roles(harness.db, branchId)).toEqual(["system", "user", "assistant"]);
    expect((await getHistoryByBranchId(harness.db, branchId)).map((record) => record.message.content)).not.toContain("Second");
  });

  it("stops the model when the browser goes away mid-stream; the turn stays, no reply is recorded", async () => {
    const { conversationId, branchId } = await conversation(harness.db);
    harness.fake.enqueue({ content: "a long answer streamed slowly, piece by piece", chunkSize: 2, chunkDelayMs: 30 });
    const request = new Request(`http://localhost/api/branches/${branchId}/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userTurn: "Tell me" }),
    });
    const response = await chatRoute(request, { params: Promise.resolve({ branchId }) });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    await expect.poll(async () => (await getExchangesByConversationId(harness.db, conversationId)).at(0)?.status, { timeout: 4_000 }).toBe(499);
    expect(await roles(harness.db, branchId)).toEqual(["system", "user"]);
    // The branch is free again.
    expect(outcomeOf(await postChat(branchId, {})).status).toBe("ok");
  });

  it("works with the history a conversation already has (an imported one), sending it whole", async () => {
    const { branchId } = await conversation(harness.db, {}, [{ role: "system", content: SYSTEM }, user("Hi"), assistant("Hello! How can I help?")]);
    const done = outcomeOf(await postChat(branchId, { userTurn: "What is my baggage allowance?", stream: true }));
    expect(done.message.position).toBe(4);
    expect((harness.chatRequests()[0].body!.messages as Message[]).map((message) => message.content)).toEqual([
      SYSTEM,
      "Hi",
      "Hello! How can I help?",
      "What is my baggage allowance?",
    ]);
  });
});
