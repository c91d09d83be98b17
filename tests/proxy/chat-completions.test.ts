import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { createConversation } from "@/lib/db";
import { callFactsOf } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness, UPSTREAM_KEY } from "./support/harness";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const SYSTEM: ChatMessage = { role: "system", content: "You are a travel agent." };

const TOOLS: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "search_flights",
      description: "Find flights",
      parameters: { type: "object", properties: { to: { type: "string" }, date: { type: "string" } }, required: ["to"] },
    },
  },
];

describe.each(TEST_PROVIDERS)("proxy: chat completions (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it("forwards a non-streaming completion and records the conversation, its turns and the exchange", async () => {
    const started = Date.now();
    const messages: ChatMessage[] = [SYSTEM, { role: "user", content: "Book me a flight to Lisbon." }];
    const completion = await harness.agent("planner").chat.completions.create({ model: "fake-gpt", messages });
    expect(completion.choices[0].message.content).toBe("echo: Book me a flight to Lisbon.");
    expect(completion.id).toBe("chatcmpl-fake-1");
    await harness.recorded();

    const recorded = await recordedFor(test.db, "planner");
    expect(recorded.conversation).toMatchObject({ source: "proxy", recordKey: "planner", title: "planner" });
    expect(recorded.branches).toHaveLength(1);
    expect(recorded.histories.get(recorded.branches[0].id)).toEqual([
      { role: "system", content: "You are a travel agent." },
      { role: "user", content: "Book me a flight to Lisbon." },
      { role: "assistant", content: "echo: Book me a flight to Lisbon." },
    ]);
    const [exchange] = recorded.exchanges;
    expect(recorded.exchanges).toHaveLength(1);
    expect(exchange).toMatchObject({ branchId: recorded.branches[0].id, status: 200, streamed: false, sent: null, error: null });
    expect(exchange.request).toEqual({ model: "fake-gpt", messages });
    expect(exchange.response).toEqual(JSON.parse(JSON.stringify(completion)));
    expect(exchange.durationMs).toEqual(expect.any(Number));

    const stored = recorded.records.get(recorded.branches[0].id)!;
    expect(stored.map((record) => record.metadata?.exchangeId)).toEqual([exchange.id, exchange.id, exchange.id]);
    expect(stored[2].metadata).toMatchObject({ recorder: "proxy", model: "fake-gpt", finishReason: "stop", usage: completion.usage });
    expect(stored.every((record) => record.tokens > 0)).toBe(true);
    // F-SF2: the reply carries its call's facts under the names imports use.
    const facts = callFactsOf(stored[2].metadata);
    expect(facts).toMatchObject({ model: "fake-gpt", stopReason: "stop", responseId: "chatcmpl-fake-1", latencyMs: exchange.durationMs });
    expect(facts?.usage?.output).toBe(completion.usage?.completion_tokens);
    expect(Date.parse(facts?.at ?? "")).toBeGreaterThanOrEqual(started);
    expect(Date.parse(facts?.at ?? "")).toBeLessThanOrEqual(Date.now());
    expect(callFactsOf(stored[1].metadata)?.at).toEqual(expect.any(String));
  });

  it("streams chunk by chunk and records the reply assembled from the deltas, with usage", async () => {
    harness.fake.enqueue({ content: "Lisbon has three flights tomorrow morning.", chunkSize: 5 });
    const stream = await harness.agent("streamer").chat.completions.create({
      model: "fake-gpt",
      messages: [SYSTEM, { role: "user", content: "Any flights?" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe("Lisbon has three flights tomorrow morning.");
    // role chunk, 9 content pieces, finish chunk, usage chunk: each passed through as its own chunk.
    expect(chunks).toHaveLength(12);
    const usage = chunks.at(-1)!.usage;
    expect(usage).toMatchObject({ prompt_tokens: expect.any(Number), completion_tokens: 42 });
    await harness.recorded();

    const recorded = await recordedFor(test.db, "streamer");
    const history = recorded.histories.get(recorded.branches[0].id)!;
    expect(history.at(-1)).toEqual({ role: "assistant", content: "Lisbon has three flights tomorrow morning." });
    const [exchange] = recorded.exchanges;
    expect(exchange).toMatchObject({ status: 200, streamed: true, error: null });
    expect(exchange.response).toMatchObject({
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage,
    });
    expect(recorded.records.get(recorded.branches[0].id)!.at(-1)!.metadata).toMatchObject({ usage, finishReason: "stop" });
  });

  it("assembles tool-call deltas split across chunks, then records the tool results the agent sends next", async () => {
    const agent = harness.agent("tools");
    harness.fake.enqueue({
      content: null,
      chunkSize: 3,
      toolCalls: [
        { id: "call_lis", name: "search_flights", arguments: '{"to":"LIS","date":"2026-05-01"}' },
        { id: "call_opo", name: "search_flights", arguments: '{"to":"OPO"}' },
      ],
    });
    const history: ChatMessage[] = [SYSTEM, { role: "user", content: "Flights to Lisbon or Porto?" }];
    const stream = await agent.chat.completions.create({ model: "fake-gpt", messages: history, tools: TOOLS, stream: true });
    const calls: { id: string; name: string; arguments: string }[] = [];
    let deltas = 0;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        deltas += 1;
        calls[call.index] ??= { id: "", name: "", arguments: "" };
        if (call.id) calls[call.index].id = call.id;
        calls[call.index].name += call.function?.name ?? "";
        calls[call.index].arguments += call.function?.arguments ?? "";
      }
    }
    expect(deltas).toBeGreaterThan(4);
    expect(calls).toEqual([
      { id: "call_lis", name: "search_flights", arguments: '{"to":"LIS","date":"2026-05-01"}' },
      { id: "call_opo", name: "search_flights", arguments: '{"to":"OPO"}' },
    ]);

    const toolCalls = calls.map((call) => ({ id: call.id, type: "function" as const, function: { name: call.name, arguments: call.arguments } }));
    history.push(
      { role: "assistant", content: null, tool_calls: toolCalls },
      { role: "tool", tool_call_id: "call_lis", content: '{"flights":["TP123"]}' },
      { role: "tool", tool_call_id: "call_opo", content: '{"flights":[]}' },
    );
    harness.fake.enqueue({ content: "TP123 to Lisbon; nothing to Porto." });
    const answer = await agent.chat.completions.create({ model: "fake-gpt", messages: history, tools: TOOLS });
    expect(answer.choices[0].message.content).toBe("TP123 to Lisbon; nothing to Porto.");
    await harness.recorded();

    const recorded = await recordedFor(test.db, "tools");
    expect(recorded.branches).toHaveLength(1);
    expect(recorded.conversation.tools).toEqual(TOOLS);
    expect(recorded.histories.get(recorded.branches[0].id)).toEqual([
      { role: "system", content: "You are a travel agent." },
      { role: "user", content: "Flights to Lisbon or Porto?" },
      { role: "assistant", content: null, tool_calls: toolCalls },
      { role: "tool", content: '{"flights":["TP123"]}', tool_call_id: "call_lis" },
      { role: "tool", content: '{"flights":[]}', tool_call_id: "call_opo" },
      { role: "assistant", content: "TP123 to Lisbon; nothing to Porto." },
    ]);
    expect(recorded.exchanges.map((exchange) => exchange.streamed)).toEqual([true, false]);
    expect(harness.fake.requests[0].body?.tools).toEqual(TOOLS);
  });

  it("extends one branch across consecutive requests, however the agent re-spells earlier messages", async () => {
    const agent = harness.agent("respeller");
    const history: ChatMessage[] = [SYSTEM, { role: "user", content: "one" }];
    await agent.chat.completions.create({ model: "fake-gpt", messages: history });
    // The agent sends its own history back in another spelling: content parts, "" for null, arguments re-serialised.
    harness.fake.enqueue({ content: "", toolCalls: [{ id: "call_1", name: "search_flights", arguments: '{"to":"LIS","date":"x"}' }] });
    const spelled: ChatMessage[] = [
      { role: "developer", content: "You are a travel agent." },
      { role: "user", content: [{ type: "text", text: "one" }] },
      { role: "assistant", content: [{ type: "text", text: "echo: one" }] },
      { role: "user", content: "two" },
    ];
    await agent.chat.completions.create({ model: "fake-gpt", messages: [SYSTEM, ...spelled.slice(1)] });
    await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        ...spelled,
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "search_flights", arguments: '{ "date": "x", "to": "LIS" }' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "ok" },
      ],
    });
    await harness.recorded();

    const recorded = await recordedFor(test.db, "respeller");
    expect(recorded.branches).toHaveLength(1);
    const history2 = recorded.histories.get(recorded.branches[0].id)!;
    expect(history2.map((message) => message.role)).toEqual(["system", "user", "assistant", "user", "assistant", "tool", "assistant"]);
    expect(history2.at(-1)).toEqual({ role: "assistant", content: "echo: two" });
    expect(recorded.exchanges.map((exchange) => exchange.branchId)).toEqual(Array(3).fill(recorded.branches[0].id));
  });

  it("[PX-P5] records a legacy function_call and its function result under one id, and extends the branch with them", async () => {
    const functions = [
      { name: "get_weather", description: "Weather of a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
    ];
    const agent = harness.agent("legacy");
    const history: ChatMessage[] = [{ role: "user", content: "Weather in Oslo?" }];
    harness.fake.enqueue({ toolCalls: [{ id: "call_w", name: "get_weather", arguments: '{"city":"Oslo"}' }] });
    await agent.chat.completions.create({ model: "fake-gpt", messages: history, functions });
    // The agent speaks the legacy dialect: the call as function_call, the result as a function message.
    history.push(
      { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
      { role: "function", name: "get_weather", content: "rain, 4°C" },
    );
    const answer = await agent.chat.completions.create({ model: "fake-gpt", messages: history, functions });
    expect(answer.choices[0].message.content).toBe("echo: Weather in Oslo?");
    expect(harness.fake.requests[1].body?.messages).toEqual(history);
    await harness.recorded();

    const { conversation, branches, histories } = await recordedFor(test.db, "legacy");
    expect(conversation.tools?.map((tool) => tool.function.name)).toEqual(["get_weather"]);
    const recorded = histories.get(branches.at(-1)!.id)!;
    const call = recorded.find(
      (message) => message.role === "assistant" && message.tool_calls?.[0]?.function.name === "get_weather" && message.tool_calls[0].id !== "call_w",
    );
    const result = recorded.find((message) => message.role === "tool");
    expect(call?.tool_calls?.[0].id).toEqual(expect.any(String));
    expect(result).toMatchObject({ role: "tool", content: "rain, 4°C", tool_call_id: call?.tool_calls?.[0].id });
    expect(recorded.at(-1)).toEqual({ role: "assistant", content: "echo: Weather in Oslo?" });
  });

  it("records into the conversation named by X-Context-Lab-Conversation, by id or by record key", async () => {
    const { conversation, branch } = await createConversation(test.db, {
      title: "pasted yesterday",
      source: "import:openai",
      messages: [
        { message: { role: "user", content: "hello" }, tokens: 2 },
        { message: { role: "assistant", content: "hi there" }, tokens: 3 },
      ],
    });
    const agent = harness.agent("ignored", { defaultHeaders: { "X-Context-Lab-Conversation": conversation.id } });
    await agent.chat.completions.create({
      model: "fake-gpt",
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi there" },
        { role: "user", content: "continue" },
      ],
    });
    const byHeader = harness.agent("ignored-too", { defaultHeaders: { "X-Context-Lab-Conversation": "team-run-7" } });
    await byHeader.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "x" }] });
    await harness.recorded();

    const history = (await recordedFor(test.db, "team-run-7")).histories;
    expect([...history.values()][0]).toEqual([
      { role: "user", content: "x" },
      { role: "assistant", content: "echo: x" },
    ]);
    const { getHistoryByBranchId, findConversationByRecordKey } = await import("@/lib/db");
    expect((await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content)).toEqual([
      "hello",
      "hi there",
      "continue",
      "echo: continue",
    ]);
    expect(await findConversationByRecordKey(test.db, "ignored")).toBeNull();
  });

  it("forwards with the configured key, never the agent's ctxlab- key nor Context Lab's headers", async () => {
    const agent = harness.agent("secretive", { defaultHeaders: { "X-Context-Lab-Conversation": "secretive", "OpenAI-Organization": "org-test" } });
    await agent.chat.completions.create({ model: "fake-gpt", messages: [{ role: "user", content: "hi" }] });
    const [forwarded] = harness.fake.requests;
    expect(forwarded.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(forwarded.headers["openai-organization"]).toBe("org-test");
    expect(forwarded.headers["x-context-lab-conversation"]).toBeUndefined();
    expect(JSON.stringify(forwarded.headers)).not.toContain("ctxlab-");
    await harness.recorded();
    expect(JSON.stringify((await recordedFor(test.db, "secretive")).exchanges)).not.toContain(UPSTREAM_KEY);
  });

  it("passes GET /v1/models through", async () => {
    const models = await harness.agent("lister").models.list();
    expect(models.data.map((model) => model.id)).toEqual(["fake-gpt"]);
    expect(harness.fake.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(harness.fake.requests[0].headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
  });
});
