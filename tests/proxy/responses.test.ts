import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { directAndProxied, type Target } from "./support/direct";
import { collectLiveEvents, recordedFor, useProxyHarness, UPSTREAM_KEY } from "./support/harness";

const TOOLS: OpenAI.Responses.Tool[] = [
  {
    type: "function",
    name: "search_flights",
    description: "Find flights",
    parameters: { type: "object", properties: { to: { type: "string" } }, required: ["to"] },
    strict: false,
  },
];
const INSTRUCTIONS = "You are a travel agent.";

describe.each(TEST_PROVIDERS)("proxy: OpenAI Responses with the openai client (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const client = (target: Target, label: string) =>
    target === "direct" ? new OpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY, maxRetries: 0 }) : harness.agent(label);

  it("[P-R1][P-R2] answers a whole response as the upstream does and records instructions, input and the reply with its reasoning", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, [{ content: "Lisbon, tomorrow at 9.", reasoning: "The user wants a flight." }], (target) =>
      client(target, "responder").responses.create({ model: "fake-gpt", instructions: INSTRUCTIONS, input: "A flight to Lisbon?" }),
    );
    expect(proxied).toEqual(direct);
    expect(proxied.output_text).toBe("Lisbon, tomorrow at 9.");
    await harness.recorded();

    const recorded = await recordedFor(test.db, "responder");
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.map((message) => [message.role, message.content])).toEqual([
      ["system", INSTRUCTIONS],
      ["user", "A flight to Lisbon?"],
      ["assistant", "Lisbon, tomorrow at 9."],
    ]);
    expect(history[2].parts?.[0]).toMatchObject({ type: "reasoning", summary: ["The user wants a flight."] });
    const [exchange] = recorded.exchanges;
    expect(exchange).toMatchObject({ status: 200, streamed: false, error: null });
    const { output_text: _computed, ...wire } = direct;
    expect(exchange.response).toEqual(JSON.parse(JSON.stringify(wire)));
    expect(recorded.records.get(recorded.branches[0].id)!.at(-1)!.metadata).toMatchObject({ finishReason: "completed", usage: direct.usage });
  });

  it("[P-R3] streams the events as the upstream sends them and records the response the stream completed", async () => {
    const script = { content: "Three flights leave tomorrow.", reasoning: "Check the timetable.", chunkSize: 5 };
    const { direct, proxied } = await directAndProxied(harness.fake, [script], async (target) => {
      const stream = await client(target, "streamer").responses.create({ model: "fake-gpt", input: "Flights?", stream: true });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      return events;
    });
    expect(proxied).toEqual(direct);
    expect(proxied.filter((event) => event.type === "response.output_text.delta")).toHaveLength(6);
    await harness.recorded();

    const recorded = await recordedFor(test.db, "streamer");
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.at(-1)).toMatchObject({ role: "assistant", content: "Three flights leave tomorrow." });
    expect(history.at(-1)!.parts?.[0]).toMatchObject({ type: "reasoning", summary: ["Check the timetable."] });
    const completed = proxied.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(recorded.exchanges[0]).toMatchObject({ streamed: true, status: 200, error: null });
    expect(recorded.exchanges[0].response).toEqual(JSON.parse(JSON.stringify(completed.response)));
  });

  it("[P-R1] records parallel function calls and their outputs as tool calls and tool results, in order", async () => {
    const agent = harness.agent("tools");
    harness.fake.enqueue({
      toolCalls: [
        { id: "call_lis", name: "search_flights", arguments: '{"to":"LIS"}' },
        { id: "call_opo", name: "search_flights", arguments: '{"to":"OPO"}' },
      ],
    });
    const first = await agent.responses.create({ model: "fake-gpt", instructions: INSTRUCTIONS, input: "Lisbon or Porto?", tools: TOOLS });
    const calls = first.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === "function_call");
    expect(calls.map((call) => call.call_id)).toEqual(["call_lis", "call_opo"]);
    harness.fake.enqueue({ content: "TP123 to Lisbon." });
    const input: OpenAI.Responses.ResponseInput = [
      { role: "user", content: "Lisbon or Porto?" },
      ...calls,
      { type: "function_call_output", call_id: "call_lis", output: '["TP123"]' },
      { type: "function_call_output", call_id: "call_opo", output: "[]" },
    ];
    const second = await agent.responses.create({ model: "fake-gpt", instructions: INSTRUCTIONS, input, tools: TOOLS });
    expect(second.output_text).toBe("TP123 to Lisbon.");
    await harness.recorded();

    const recorded = await recordedFor(test.db, "tools");
    expect(recorded.branches).toHaveLength(1);
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant"]);
    expect(history[2].tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ["call_lis", '{"to":"LIS"}'],
      ["call_opo", '{"to":"OPO"}'],
    ]);
    expect(history.slice(3, 5).map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_lis", '["TP123"]'],
      ["call_opo", "[]"],
    ]);
    expect(recorded.conversation.tools?.map((tool) => tool.function.name)).toEqual(["search_flights"]);
  });

  it("[P-R4] records a previous_response_id continuation as the whole conversation, resolved from what it recorded", async () => {
    const agent = harness.agent("chain");
    harness.fake.enqueue({ toolCalls: [{ id: "call_1", name: "search_flights", arguments: '{"to":"LIS"}' }] });
    const first = await agent.responses.create({ model: "fake-gpt", instructions: INSTRUCTIONS, input: "Lisbon?", tools: TOOLS });
    harness.fake.enqueue({ content: "Booked TP123." });
    const second = await agent.responses.create({
      model: "fake-gpt",
      instructions: INSTRUCTIONS,
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: "call_1", output: '["TP123"]' }],
      tools: TOOLS,
    });
    const third = await agent.responses.create({ model: "fake-gpt", instructions: INSTRUCTIONS, previous_response_id: second.id, input: "Thanks!" });
    expect(third.output_text).toBe("echo: Thanks!");
    await harness.recorded();

    const recorded = await recordedFor(test.db, "chain");
    expect(recorded.branches).toHaveLength(1);
    expect(recorded.histories.get(recorded.branches[0].id)!.map((message) => [message.role, message.content, message.tool_call_id ?? null])).toEqual([
      ["system", INSTRUCTIONS, null],
      ["user", "Lisbon?", null],
      ["assistant", null, null],
      ["tool", '["TP123"]', "call_1"],
      ["assistant", "Booked TP123.", null],
      ["user", "Thanks!", null],
      ["assistant", "echo: Thanks!", null],
    ]);
  });

  it("[P-R4] does not continue a response sent with store: false, as the upstream does not, and passes its 400 through", async () => {
    const agent = harness.agent("unstored");
    const first = await agent.responses.create({ model: "fake-gpt", input: "hi", store: false });
    const error = await agent.responses.create({ model: "fake-gpt", previous_response_id: first.id, input: "again" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("previous_response_not_found");
    await harness.recorded();
    const recorded = await recordedFor(test.db, "unstored");
    expect(harness.fake.requests.at(-1)?.body).toMatchObject({ previous_response_id: first.id, input: "again" });
    expect(recorded.exchanges.map((exchange) => exchange.status)).toEqual([200, 400]);
    expect(recorded.exchanges[1].error).toMatchObject({ source: "upstream", status: 400, code: "previous_response_not_found" });
  });

  it("[P-R1] passes an upstream error through as it came, and the live view sees the exchange", async () => {
    const live = collectLiveEvents();
    harness.fake.enqueue({ kind: "error", status: 429, headers: { "retry-after": "7" } });
    const error = await harness
      .agent("limited")
      .responses.create({ model: "fake-gpt", input: "hi" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect((error as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("7");
    await harness.recorded();
    const recorded = await recordedFor(test.db, "limited");
    expect(recorded.exchanges[0]).toMatchObject({ status: 429, error: { source: "upstream", status: 429, code: "rate_limit_exceeded" } });
    await live.until((event) => event.type === "exchange-recorded" && event.exchange.status === 429);
    live.stop();
  });

  it("[P-R1] refuses a body that is not a Responses request with a 400 naming the field", async () => {
    const response = await fetch(`${harness.baseUrl}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer ctxlab-broken" },
      body: JSON.stringify({ model: "fake-gpt", input: [{ type: "function_call", name: "f", arguments: "{}" }] }),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: "input[0].call_id" });
    expect(body.error.message).toContain("OpenAI Responses");
    expect(harness.fake.requests).toHaveLength(0);
  });

  it("[P-R3] records what arrived of a stream the upstream dropped", async () => {
    harness.fake.enqueue({ kind: "drop", afterChunks: 5, reply: { content: "Half of an answer.", chunkSize: 4 } });
    const stream = await harness.agent("cut").responses.create({ model: "fake-gpt", input: "hi", stream: true });
    const deltas: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) if (event.type === "response.output_text.delta") deltas.push(event.delta);
      })(),
    ).rejects.toThrow();
    await harness.recorded();
    const [exchange] = (await recordedFor(test.db, "cut")).exchanges;
    expect(exchange.error).toMatchObject({ source: "upstream", type: "stream_dropped", chunks: 5 });
    expect(exchange.response).toMatchObject({ id: "resp_fake_1", output: [{ type: "message", content: [{ type: "output_text", text: deltas.join("") }] }] });
  });
});
