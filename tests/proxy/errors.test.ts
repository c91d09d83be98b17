import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findConversationByRecordKey } from "@/lib/db";
import { MAX_REQUEST_BYTES } from "@/lib/security/origin";
import type { ExchangeRecordedEvent } from "@/lib/live";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { closedLoopbackPort } from "@/tests/support/loopback";
import { collectLiveEvents, recordedFor, useProxyHarness } from "./support/harness";

const MESSAGES: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
  { role: "system", content: "You are terse." },
  { role: "user", content: "Status?" },
];

/** Runs `call`, expecting it to fail, and returns what it threw. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call succeeded");
}

describe.each(TEST_PROVIDERS)("proxy: upstream errors (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  let live: ReturnType<typeof collectLiveEvents>;
  beforeEach(() => {
    live = collectLiveEvents();
  });
  afterEach(() => live.stop());

  /** The agent's recorded history and its one exchange, once the exchange's outcome is stored. */
  async function recordedCall(label: string) {
    await live.until((event) => event.type === "exchange-recorded");
    await harness.recorded();
    const recorded = await recordedFor(test.db, label);
    expect(recorded.exchanges).toHaveLength(1);
    expect(recorded.branches).toHaveLength(1);
    return { exchange: recorded.exchanges[0], history: recorded.histories.get(recorded.branches[0].id)! };
  }

  it.each([
    { status: 401, kind: OpenAI.AuthenticationError, type: "invalid_request_error", code: "invalid_api_key" },
    { status: 429, kind: OpenAI.RateLimitError, type: "requests", code: "rate_limit_exceeded" },
    { status: 500, kind: OpenAI.InternalServerError, type: "server_error", code: null },
  ])("passes a $status through as the upstream sent it and records the error with the request's turns", async ({ status, kind, type, code }) => {
    const headers = status === 429 ? { "retry-after": "7", "x-ratelimit-remaining-requests": "0" } : undefined;
    harness.fake.enqueue({ kind: "error", status, headers });
    const error = await failure(() => harness.agent(`failing-${status}`).chat.completions.create({ model: "fake-gpt", messages: MESSAGES }));
    expect(error).toBeInstanceOf(kind);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(status);
    expect(apiError.type).toBe(type);
    expect(apiError.code).toBe(code);
    expect(apiError.headers?.get("x-request-id")).toBe("req_fake_1");
    if (status === 429) {
      expect(apiError.headers?.get("retry-after")).toBe("7");
      expect(apiError.headers?.get("x-ratelimit-remaining-requests")).toBe("0");
    }

    const { exchange, history } = await recordedCall(`failing-${status}`);
    expect(history).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: "Status?" },
    ]);
    expect(exchange.status).toBe(status);
    expect(exchange.response).toEqual({ error: apiError.error });
    expect(exchange.error).toMatchObject({
      source: "upstream",
      status,
      type,
      code,
      message: apiError.error && (apiError.error as { message: string }).message,
    });
    if (status === 429) expect(exchange.error).toMatchObject({ headers: { "retry-after": "7", "x-ratelimit-remaining-requests": "0" } });
  });

  it("answers 504 when the upstream does not answer within the timeout, and records it", async () => {
    process.env.CONTEXT_LAB_UPSTREAM_TIMEOUT_MS = "300";
    harness.fake.enqueue({ kind: "hang" });
    const error = await failure(() => harness.agent("patient").chat.completions.create({ model: "fake-gpt", messages: MESSAGES }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 504, type: "upstream_timeout", code: "upstream_timeout" });
    const { exchange, history } = await recordedCall("patient");
    expect(history).toHaveLength(2);
    expect(exchange).toMatchObject({ status: 504, error: { source: "proxy", type: "upstream_timeout" } });
  });

  it("records an agent that gives up before the upstream answers as 499", async () => {
    harness.fake.enqueue({ content: "too late", delayMs: 5_000 });
    const error = await failure(() => harness.agent("impatient", { timeout: 300 }).chat.completions.create({ model: "fake-gpt", messages: MESSAGES }));
    expect(error).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    const { exchange, history } = await recordedCall("impatient");
    expect(history).toHaveLength(2);
    expect(exchange).toMatchObject({ status: 499, error: { source: "client", type: "client_closed_request" } });
  });

  it("answers 502 with the network error when the upstream refuses the connection", async () => {
    process.env.CONTEXT_LAB_UPSTREAM_BASE_URL = `http://127.0.0.1:${await closedLoopbackPort()}/v1`;
    const error = await failure(() => harness.agent("refused").chat.completions.create({ model: "fake-gpt", messages: MESSAGES }));
    expect(error).toMatchObject({ status: 502, type: "upstream_unreachable", code: "ECONNREFUSED" });
    expect((error as Error).message).toMatch(/cannot reach the upstream http:\/\/127\.0\.0\.1:\d+\/v1: connect ECONNREFUSED/);
    const { exchange } = await recordedCall("refused");
    expect(exchange).toMatchObject({ status: 502, error: { source: "proxy", type: "upstream_unreachable", code: "ECONNREFUSED" } });
  });

  it("passes a stream dropped mid-way on as far as it came, then ends the connection, and records the partial answer", async () => {
    harness.fake.enqueue({ kind: "drop", afterChunks: 3, reply: { content: "a reply that will not arrive whole", chunkSize: 4 } });
    const stream = await harness.agent("dropped").chat.completions.create({ model: "fake-gpt", messages: MESSAGES, stream: true });
    let text = "";
    const error = await failure(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    });
    expect(error).toBeInstanceOf(Error);
    expect(text).toBe("a reply ");

    const { exchange, history } = await recordedCall("dropped");
    expect(history).toHaveLength(2);
    expect(exchange).toMatchObject({ status: 200, streamed: true, error: { source: "upstream", type: "stream_dropped", chunks: 3 } });
    expect(exchange.response).toMatchObject({ choices: [{ message: { content: "a reply " }, finish_reason: null }] });
  });

  it("ends a stream that stalls past the timeout after the chunks that came, and records the timeout", async () => {
    process.env.CONTEXT_LAB_UPSTREAM_TIMEOUT_MS = "300";
    harness.fake.enqueue({ kind: "stall", afterChunks: 2, reply: { content: "stuck forever", chunkSize: 5 } });
    const stream = await harness.agent("stalled").chat.completions.create({ model: "fake-gpt", messages: MESSAGES, stream: true });
    let text = "";
    await failure(async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    });
    expect(text).toBe("stuck");
    const { exchange } = await recordedCall("stalled");
    expect(exchange).toMatchObject({ status: 200, error: { source: "upstream", type: "upstream_timeout", chunks: 2 } });
  });

  it("answers 503 when no upstream is configured, and still records the request", async () => {
    delete process.env.CONTEXT_LAB_UPSTREAM_BASE_URL;
    const error = await failure(() => harness.agent("unconfigured").chat.completions.create({ model: "fake-gpt", messages: MESSAGES }));
    expect(error).toMatchObject({ status: 503, type: "upstream_not_configured" });
    const { exchange } = await recordedCall("unconfigured");
    expect(exchange).toMatchObject({ status: 503, error: { type: "upstream_not_configured" } });
    expect(harness.fake.requests).toHaveLength(0);
  });

  it("refuses a body it cannot read with a 400 naming the field, recording nothing", async () => {
    const post = (body: string) =>
      fetch(`${harness.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer ctxlab-garbled", "content-type": "application/json" },
        body,
      });
    const notJson = await post("{");
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error).toMatchObject({ type: "invalid_request_error", code: "invalid_request" });
    const badRole = await post(
      JSON.stringify({
        model: "m",
        messages: [
          { role: "user", content: "a" },
          { role: "robot", content: "b" },
        ],
      }),
    );
    expect(badRole.status).toBe(400);
    expect((await badRole.json()).error).toMatchObject({ param: "messages[1].role", message: expect.stringContaining("messages[1]") });
    await harness.recorded();
    expect(await findConversationByRecordKey(test.db, "garbled")).toBeNull();
    expect(harness.fake.requests).toHaveLength(0);
    expect(live.events.filter((event): event is ExchangeRecordedEvent => event.type === "exchange-recorded")).toHaveLength(0);
  });

  it("[PX-P6] refuses a body over the size limit with 413 in OpenAI's error shape before parsing it, and a body of unknown size with 411", async () => {
    const huge = "x".repeat(MAX_REQUEST_BYTES + 1);
    const error = await failure(() => harness.agent("huge").chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: huge }] }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(error).toMatchObject({ status: 413, type: "invalid_request_error", code: "payload_too_large" });
    expect((error as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({ limit: MAX_REQUEST_BYTES });

    // A chunked body declares no length: the request guard refuses it before the route reads a byte (SEC-6).
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_REQUEST_BYTES) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const streamed = await fetch(`${harness.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer ctxlab-huge", "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(411);
    expect((await streamed.json()).error).toMatchObject({ type: "invalid_request_error", code: "length_required", param: null });
    await harness.recorded();
    expect(harness.fake.requests).toHaveLength(0);
    expect(await findConversationByRecordKey(test.db, "huge")).toBeNull();
  });
});
