import { describe, expect, it } from "vitest";
import * as callRoute from "@/app/api/calls/[callId]/route";
import * as callsRoute from "@/app/api/conversations/[id]/calls/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import type { CallDetail, CallPage } from "@/lib/calls/types";
import { createExchange, updateExchangeById, type Database } from "@/lib/db";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const SYSTEM = { role: "system", content: "You are a travel agent for Context Airlines." };
const FIRST = [SYSTEM, { role: "user", content: "Where does reservation 8JX2WO go?" }];
const REPLY = { role: "assistant", content: "It flies from Boston to Seattle." };
const SECOND = [...FIRST, REPLY, { role: "user", content: "Is it a direct flight?" }];
const USAGE = { prompt_tokens: 1_000_000, completion_tokens: 100_000, total_tokens: 1_100_000, prompt_tokens_details: { cached_tokens: 400_000 } };

function completion(content: string) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: "gpt-4o-2024-08-06",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: USAGE,
  };
}

/** What the proxy records for an SDK that meets a 429, retries, then sends the next turn. */
async function recordCalls(db: Database, branchId: string): Promise<string[]> {
  const ids: string[] = [];
  const limited = await createExchange(db, branchId, { request: { model: "gpt-4o", messages: FIRST } });
  await updateExchangeById(db, limited.id, {
    status: 429,
    response: { error: { message: "Rate limit reached for gpt-4o", type: "rate_limit_exceeded", code: "rate_limit_exceeded" } },
    error: {
      source: "upstream",
      status: 429,
      type: "rate_limit_exceeded",
      code: "rate_limit_exceeded",
      message: "Rate limit reached for gpt-4o",
      headers: { "retry-after": "2" },
    },
    durationMs: 12,
  });
  ids.push(limited.id);
  for (const [messages, answer] of [
    [FIRST, "It flies from Boston to Seattle."],
    [SECOND, "Yes, it is direct."],
  ] as const) {
    const exchange = await createExchange(db, branchId, { request: { model: "gpt-4o", messages } });
    await updateExchangeById(db, exchange.id, { status: 200, response: completion(answer), error: null, durationMs: 340 });
    ids.push(exchange.id);
  }
  return ids;
}

describe.each(TEST_PROVIDERS)("calls API (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  async function setUp(): Promise<{ conversationId: string; ids: string[] }> {
    const created = await call(conversationsRoute.POST, { body: { title: "calls", messages: [SYSTEM] } });
    expect(created.status).toBe(201);
    return { conversationId: created.body.conversation.id, ids: await recordCalls(test.db, created.body.branch.id) };
  }

  it("[CA-1][CA-2][CA-5] lists the calls oldest first: the 429 with its error and retry advice, its retry, the next turn with usage and cost", async () => {
    const { conversationId, ids } = await setUp();
    const { status, body } = await call<CallPage, { id: string }>(callsRoute.GET, { params: { id: conversationId } });
    expect(status).toBe(200);
    expect(body.nextCursor).toBeNull();
    expect(body.calls.map((item) => item.id)).toEqual(ids);
    const [limited, retried, next] = body.calls;
    expect(limited).toMatchObject({
      protocol: "openai-chat",
      model: "gpt-4o",
      status: 429,
      outcome: "failed",
      retries: 0,
      retryAfter: "2 s",
      usage: null,
      cost: null,
      latencyMs: 12,
    });
    expect(limited.error).toEqual({ source: "upstream", type: "rate_limit_exceeded", message: "Rate limit reached for gpt-4o", code: "rate_limit_exceeded" });
    expect(retried).toMatchObject({ status: 200, outcome: "ok", retries: 1, retryAfter: null, error: null, model: "gpt-4o-2024-08-06" });
    expect(retried.usage).toEqual({ input: 1_000_000, output: 100_000, cached: 400_000, cacheWrite: 0 });
    // 600k uncached at $2.50, 400k cached at $1.25, 100k out at $10 per million.
    expect(retried.cost).toBeCloseTo(1.5 + 0.5 + 1, 10);
    expect(next.retries).toBe(0);
  });

  it("[CA-3][CA-4] splits each call's input tokens against the call before it", async () => {
    const { conversationId } = await setUp();
    const { body } = await call<CallPage, { id: string }>(callsRoute.GET, { params: { id: conversationId } });
    const [limited, retried, next] = body.calls;
    expect(limited.requestMessages).toBe(2);
    expect(next.requestMessages).toBe(4);
    expect(limited.tokens).toMatchObject({ encoding: "o200k_base", exact: true, tools: 0, history: 0 });
    expect(limited.tokens!.system).toBeGreaterThan(0);
    // The retry sent exactly what the 429 did: all history, nothing new but the reply priming.
    expect(retried.tokens).toMatchObject({ system: limited.tokens!.system, history: limited.tokens!.new - 3, new: 3 });
    expect(next.tokens!.history).toBe(retried.tokens!.history);
    expect(next.tokens!.new).toBeGreaterThan(3);
    for (const item of body.calls) expect(item.tokens!.total).toBe(item.tokens!.system + item.tokens!.tools + item.tokens!.history + item.tokens!.new);
  });

  it("pages with a cursor, newest last, and filters the failed calls", async () => {
    const { conversationId, ids } = await setUp();
    const first = await call<CallPage, { id: string }>(callsRoute.GET, { params: { id: conversationId }, url: "/api/test?limit=2" });
    expect(first.body.calls.map((item) => item.id)).toEqual(ids.slice(0, 2));
    expect(first.body.nextCursor).toBe(ids[1]);
    const second = await call<CallPage, { id: string }>(callsRoute.GET, { params: { id: conversationId }, url: `/api/test?limit=2&after=${ids[1]}` });
    expect(second.body.calls.map((item) => item.id)).toEqual([ids[2]]);
    expect(second.body.nextCursor).toBeNull();
    // The page's first call still splits against the call before the page.
    expect(second.body.calls[0].tokens!.history).toBeGreaterThan(0);
    const failed = await call<CallPage, { id: string }>(callsRoute.GET, { params: { id: conversationId }, url: "/api/test?failed=true" });
    expect(failed.body.calls.map((item) => [item.id, item.status])).toEqual([[ids[0], 429]]);
  });

  it("gives one call's bodies and the messages of the call before it", async () => {
    const { ids } = await setUp();
    const { status, body } = await call<CallDetail, { callId: string }>(callRoute.GET, { params: { callId: ids[2] } });
    expect(status).toBe(200);
    expect(body.request).toEqual({ model: "gpt-4o", messages: SECOND });
    expect(body.sent).toBeNull();
    expect(body.response).toEqual(completion("Yes, it is direct."));
    expect(body.messages.map((message) => message.content)).toEqual(SECOND.map((message) => message.content));
    expect(body.previous?.id).toBe(ids[1]);
    expect(body.previous?.messages).toHaveLength(2);
    const firstCall = await call<CallDetail, { callId: string }>(callRoute.GET, { params: { callId: ids[0] } });
    expect(firstCall.body.previous).toBeNull();
    expect(firstCall.body.error).toMatchObject({ status: 429, headers: { "retry-after": "2" } });
  });

  it("answers errors in the API's shape: unknown conversation, call or cursor, a bad limit", async () => {
    const { conversationId } = await setUp();
    const missing = await call(callsRoute.GET, { params: { id: "nope" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", resource: "conversation", id: "nope" });
    const missingCall = await call(callRoute.GET, { params: { callId: "nope" } });
    expect(missingCall.status).toBe(404);
    expect(missingCall.body.error).toMatchObject({ code: "not_found", resource: "exchange" });
    const badCursor = await call(callsRoute.GET, { params: { id: conversationId }, url: "/api/test?after=nope" });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.code).toBe("invalid_argument");
    expect(badCursor.body.error.message).toContain("cursor nope");
    const badLimit = await call(callsRoute.GET, { params: { id: conversationId }, url: "/api/test?limit=0" });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.issues[0].path).toBe("limit");
    const post = await call(callsRoute.POST, { params: { id: conversationId }, body: {} });
    expect(post.status).toBe(405);
  });
});
