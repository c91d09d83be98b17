import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

interface Envelope {
  data: Record<string, unknown>[];
}

const envelope = readFixtureJson<Envelope>("formats/helicone-query-rows.json");
const [anthropicRow, answerRow, callRow] = envelope.data;

describe("Helicone request rows", () => {
  const result = parseConversations(readFixture("formats/helicone-query-rows.json"));
  const [session, single] = result.conversations;

  it("[IM-1] detects the query API's envelope, an array of rows, one row and the UI's JSONL export", () => {
    const inputs = [
      JSON.stringify(envelope.data),
      JSON.stringify(callRow),
      envelope.data.map((row) => JSON.stringify(row)).join("\n"),
      JSON.stringify({ data: callRow, error: null }),
    ];
    for (const input of inputs) expect(parseConversations(input).format).toBe("helicone");
  });

  it("[IM-2] reads the rows of one Helicone session as one conversation: the last request and its reply", () => {
    expect(result.conversations).toHaveLength(2);
    expect(session.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(session.messages[4].content).toBe("It's 18°C and sunny in Paris.");
    expect(session.warnings.map((warning) => warning.code)).toEqual(["lines-merged"]);
    expect(single.messages.map((message) => message.role)).toEqual(["system", "user", "assistant"]);
  });

  it("[IM-10] gives each reply its row's time, latency, model, usage, request and response ids; what a request sent, the request's time", () => {
    expect(session.facts?.map((facts) => facts?.at)).toEqual([
      "2025-06-12T09:14:03.118Z",
      "2025-06-12T09:14:03.118Z",
      "2025-06-12T09:14:03.902Z",
      "2025-06-12T09:14:04.310Z",
      "2025-06-12T09:14:04.866Z",
    ]);
    expect(session.facts?.[2]).toMatchObject({
      latencyMs: 784,
      model: "gpt-4o-mini-2024-07-18",
      requestId: "8a6f0d2c-1b3e-4f5a-9d7c-2e4b6a8c0f11",
      responseId: "chatcmpl-BhT3kP0aQx9s2LmN4vR7",
      stopReason: "tool_calls",
    });
    expect(session.facts?.[4]?.usage).toMatchObject({ input: 67, cacheRead: 64, output: 11 });
    expect(single.facts?.[2]?.usage).toMatchObject({ input: 24, cacheWrite5m: 1480, output: 41 });
  });

  it("[IM-10] keeps the session id and name, the user, the properties and the cost Helicone reported per request and in all", () => {
    expect(session.session).toEqual({ sessionId: "3f1c2a9e-5d7b-4e8a-9c61-0b2d4f6a8e10" });
    expect(session.title).toBe("Weather agent");
    expect(session.tools?.map((tool) => tool.function.name)).toEqual(["get_weather"]);
    expect(session.source).toMatchObject({
      provider: "OPENAI",
      userId: "user-4821",
      costUSD: 0.0000427,
      requests: [
        { requestId: "8a6f0d2c-1b3e-4f5a-9d7c-2e4b6a8c0f11", costUSD: 0.0000231 },
        { requestId: "5e7a9c1b-3d5f-4a6b-8c0d-1e2f3a4b5c13", costUSD: 0.0000196 },
      ],
    });
  });

  it("[IM-10] falls back to the row's token counts where the response body reports no usage", () => {
    const body = { ...(anthropicRow.response_body as Record<string, unknown>), usage: undefined };
    const [conversation] = parseConversations(JSON.stringify({ ...anthropicRow, response_body: body })).conversations;
    expect(conversation.facts?.[2]?.usage).toMatchObject({ input: 24, cacheWrite5m: 1480, output: 41, raw: { prompt_cache_write_tokens: 1480 } });
  });

  it("[IM-2] reads rows that nest the bodies as request.body and response.body", () => {
    const nested = {
      request: { id: "r-1", created_at: "2025-06-12T09:14:03.118Z", body: callRow.request_body, properties: {} },
      response: { created_at: "2025-06-12T09:14:03.902Z", body: callRow.response_body, status: 200, delay_ms: 784 },
    };
    const [conversation] = parseConversations(JSON.stringify([nested])).conversations;
    expect(conversation.messages.map((message) => message.role)).toEqual(["system", "user", "assistant"]);
    expect(conversation.facts?.[2]).toMatchObject({ requestId: "r-1", latencyMs: 784, at: "2025-06-12T09:14:03.902Z" });
  });

  it("[IM-3] keeps the request of a failed call and warns that it has no reply", () => {
    const failed = { ...answerRow, response_status: 429, response_body: { error: { message: "Rate limit reached", type: "requests" } } };
    const [conversation] = parseConversations(JSON.stringify(failed)).conversations;
    expect(conversation.messages).toHaveLength(4);
    expect(conversation.warnings[0]).toMatchObject({
      code: "entry-skipped",
      message: "the call failed (status 429): only the request was imported",
      path: "response_body",
    });
  });

  it("[IM-3] a session row whose request continues no earlier one is a conversation of its own", () => {
    const unrelated = {
      ...answerRow,
      request_created_at: "2025-06-12T09:20:00.000Z",
      request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Hello" }] },
    };
    const conversations = parseConversations(JSON.stringify([callRow, unrelated])).conversations;
    expect(conversations).toHaveLength(2);
    expect(conversations[0].warnings.find((warning) => warning.code === "sidechain")?.message).toBe(
      "request 5e7a9c1b-3d5f-4a6b-8c0d-1e2f3a4b5c13 sent a prompt that continues no conversation of the requests of the session before it: imported as a conversation of its own",
    );
  });

  it("[IM-8] a row exported without its bodies is refused, naming the field and how to export them", () => {
    const error = importErrorOf(() =>
      parseConversations(JSON.stringify([{ ...callRow, request_body: {}, response_body: undefined, signed_body_url: "https://…" }])),
    );
    expect(error.issues[0]).toMatchObject({
      message: "the row holds no request body: export with the bodies (--include-body, or fetch signed_body_url)",
      path: "[0].request_body",
      format: "Helicone request rows",
    });
  });
});
