import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { ChatOpenAI } from "@langchain/openai";
import { Agent, OpenAIProvider, Runner, tool as agentTool } from "@openai/agents";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import type { FakeScript } from "@/tests/support/fake-openai";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { directAndProxied, type Target } from "./support/direct";
import { ANTHROPIC_UPSTREAM_KEY, recordedFor, useProxyHarness, UPSTREAM_KEY } from "./support/harness";

const SYSTEM = "You report the weather.";
const QUESTION = "Weather in Lisbon and Porto?";
/** Two parallel calls, then the answer: the scripted model of every client below. */
const WEATHER: FakeScript[] = [
  {
    toolCalls: [
      { id: "call_lis", name: "get_weather", arguments: '{"city":"Lisbon"}' },
      { id: "call_opo", name: "get_weather", arguments: '{"city":"Porto"}' },
    ],
  },
  { content: "Sunny in Lisbon, rain in Porto." },
];
const weatherOf = (city: string) => (city === "Lisbon" ? "sunny" : "rain");
const CITY_SCHEMA = { type: "object" as const, properties: { city: { type: "string" as const } }, required: ["city"], additionalProperties: false };

/** The recorded history of a weather run: the two calls, their results in order, the answer. */
function expectWeatherRun(history: Message[], options: { system?: boolean } = {}) {
  const start = options.system === false ? 0 : 1;
  if (start === 1) expect(history[0]).toMatchObject({ role: "system", content: SYSTEM });
  expect(history.slice(start).map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
  expect(history[start].content).toBe(QUESTION);
  expect(history[start + 1].tool_calls?.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)])).toEqual([
    ["call_lis", "get_weather", { city: "Lisbon" }],
    ["call_opo", "get_weather", { city: "Porto" }],
  ]);
  expect(history.slice(start + 2, start + 4).map((message) => [message.tool_call_id, message.content])).toEqual([
    ["call_lis", expect.stringContaining("sunny")],
    ["call_opo", expect.stringContaining("rain")],
  ]);
  expect(history[start + 4].content).toBe("Sunny in Lisbon, rain in Porto.");
}

describe.each(TEST_PROVIDERS)("proxy: the real client libraries (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const openAIBase = (target: Target) => (target === "direct" ? harness.fake.baseUrl : harness.baseUrl);
  const openAIKey = (target: Target, label: string) => (target === "direct" ? UPSTREAM_KEY : `ctxlab-${label}`);

  async function historyOf(label: string): Promise<Message[]> {
    await harness.recorded();
    const recorded = await recordedFor(test.db, label);
    expect(recorded.branches).toHaveLength(1);
    return recorded.histories.get(recorded.branches[0].id)!;
  }

  it("[P-R1] openai: chat completions, streamed and whole, with parallel tool calls", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const client = new OpenAI({ baseURL: openAIBase(target), apiKey: openAIKey(target, "openai-chat"), maxRetries: 0 });
      const tools: OpenAI.Chat.ChatCompletionTool[] = [{ type: "function", function: { name: "get_weather", parameters: CITY_SCHEMA } }];
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: "system", content: SYSTEM },
        { role: "user", content: QUESTION },
      ];
      const stream = await client.chat.completions.create({ model: "fake-gpt", messages, tools, stream: true });
      const chunks: OpenAI.Chat.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const calls = [0, 1].map((index) => {
        const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []).filter((delta) => delta.index === index);
        const args = deltas.map((delta) => delta.function?.arguments ?? "").join("");
        return { id: deltas[0].id!, type: "function" as const, function: { name: deltas[0].function!.name!, arguments: args } };
      });
      messages.push({ role: "assistant", content: null, tool_calls: calls });
      for (const call of calls) messages.push({ role: "tool", tool_call_id: call.id, content: weatherOf(JSON.parse(call.function.arguments).city) });
      const answer = await client.chat.completions.create({ model: "fake-gpt", messages, tools });
      return { chunks, answer };
    });
    expect(proxied).toEqual(direct);
    expectWeatherRun(await historyOf("openai-chat"));
  });

  it("[P-R1][P-R3] openai: responses, streamed and whole, with parallel function calls", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const client = new OpenAI({ baseURL: openAIBase(target), apiKey: openAIKey(target, "openai-responses"), maxRetries: 0 });
      const tools: OpenAI.Responses.Tool[] = [{ type: "function", name: "get_weather", parameters: CITY_SCHEMA, strict: true }];
      const stream = await client.responses.create({ model: "fake-gpt", instructions: SYSTEM, input: QUESTION, tools, stream: true });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const completed = (events.at(-1) as OpenAI.Responses.ResponseCompletedEvent).response;
      const calls = completed.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === "function_call");
      const input: OpenAI.Responses.ResponseInput = [{ role: "user", content: QUESTION }, ...calls];
      for (const call of calls) input.push({ type: "function_call_output", call_id: call.call_id, output: weatherOf(JSON.parse(call.arguments).city) });
      const answer = await client.responses.create({ model: "fake-gpt", instructions: SYSTEM, input, tools });
      return { events, answer };
    });
    expect(proxied).toEqual(direct);
    expectWeatherRun(await historyOf("openai-responses"));
  });

  const weatherTool = () =>
    tool({ description: "The weather in a city", inputSchema: jsonSchema<{ city: string }>(CITY_SCHEMA), execute: async ({ city }) => weatherOf(city) });

  it("[P-R4] AI SDK: the default OpenAI provider (Responses, item references) runs a tool loop", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const openai = createOpenAI({ baseURL: openAIBase(target), apiKey: openAIKey(target, "ai-sdk-responses") });
      const result = await generateText({
        model: openai("fake-gpt"),
        system: SYSTEM,
        prompt: QUESTION,
        tools: { get_weather: weatherTool() },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      // The next turn names the earlier answer by item_reference, as the provider does with store on.
      const next = await generateText({
        model: openai("fake-gpt"),
        system: SYSTEM,
        messages: [{ role: "user", content: QUESTION }, ...result.response.messages, { role: "user", content: "And tomorrow?" }],
        tools: { get_weather: weatherTool() },
        maxRetries: 0,
      });
      return { text: result.text, steps: result.steps.map((step) => step.content), next: next.text };
    });
    expect(proxied).toEqual(direct);
    expect(proxied.text).toBe("Sunny in Lisbon, rain in Porto.");
    const lastInput = harness.fake.requests.at(-1)!.body!.input as { type?: string }[];
    expect(lastInput.some((item) => item.type === "item_reference")).toBe(true);
    const history = await historyOf("ai-sdk-responses");
    expectWeatherRun(history.slice(0, 6));
    expect(history.slice(6).map((message) => [message.role, message.content])).toEqual([
      ["user", "And tomorrow?"],
      ["assistant", "echo: And tomorrow?"],
    ]);
  });

  it("[P-R1] AI SDK: openai.chat() streams a tool loop through chat completions", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const openai = createOpenAI({ baseURL: openAIBase(target), apiKey: openAIKey(target, "ai-sdk-chat") });
      const result = streamText({
        model: openai.chat("fake-gpt"),
        system: SYSTEM,
        prompt: QUESTION,
        tools: { get_weather: weatherTool() },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      const text = await result.text;
      return { text, steps: (await result.steps).map((step) => step.content) };
    });
    expect(proxied).toEqual(direct);
    expectWeatherRun(await historyOf("ai-sdk-chat"));
  });

  it("[P-A1][P-A2] AI SDK: the Anthropic provider streams a tool loop through /v1/messages", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const anthropic = createAnthropic(
        target === "direct"
          ? { baseURL: `${harness.fake.anthropicBaseUrl}/v1`, apiKey: ANTHROPIC_UPSTREAM_KEY }
          : { baseURL: `${harness.anthropicBaseUrl}/v1`, apiKey: "ctxlab-ai-sdk-anthropic" },
      );
      const result = streamText({
        model: anthropic("fake-claude"),
        maxOutputTokens: 1024,
        system: SYSTEM,
        prompt: QUESTION,
        tools: { get_weather: weatherTool() },
        stopWhen: stepCountIs(3),
        maxRetries: 0,
      });
      const text = await result.text;
      return { text, steps: (await result.steps).map((step) => step.content) };
    });
    expect(proxied).toEqual(direct);
    expectWeatherRun(await historyOf("ai-sdk-anthropic"));
  });

  it("[P-R1] @openai/agents: the default model (Responses) runs its tool loop", async () => {
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const runner = new Runner({
        modelProvider: new OpenAIProvider({ baseURL: openAIBase(target), apiKey: openAIKey(target, "agents") }),
        tracingDisabled: true,
      });
      const getWeather = agentTool({
        name: "get_weather",
        description: "The weather in a city",
        parameters: { ...CITY_SCHEMA, required: ["city"] as const } as never,
        strict: true,
        execute: async (input: unknown) => weatherOf((input as { city: string }).city),
      });
      const agent = new Agent({ name: "Weather", instructions: SYSTEM, model: "fake-gpt", tools: [getWeather] });
      const result = await runner.run(agent, QUESTION);
      return { output: result.finalOutput, items: result.newItems.map((item) => item.toJSON()) };
    });
    expect(proxied).toEqual(direct);
    expect(proxied.output).toBe("Sunny in Lisbon, rain in Porto.");
    expectWeatherRun(await historyOf("agents"));
  });

  it.each([false, true])("[P-R1] LangChain ChatOpenAI (useResponsesApi: %s) calls tools and answers", async (useResponsesApi) => {
    const label = `langchain-${useResponsesApi ? "responses" : "chat"}`;
    const { direct, proxied } = await directAndProxied(harness.fake, WEATHER, async (target) => {
      const model = new ChatOpenAI({
        model: "fake-gpt",
        apiKey: openAIKey(target, label),
        configuration: { baseURL: openAIBase(target) },
        useResponsesApi,
        maxRetries: 0,
      });
      const withTools = model.bindTools([
        { type: "function", function: { name: "get_weather", description: "The weather in a city", parameters: CITY_SCHEMA } },
      ]);
      const messages: Parameters<typeof withTools.invoke>[0] = [
        ["system", SYSTEM],
        ["human", QUESTION],
      ];
      const first = await withTools.invoke(messages);
      const results = (first.tool_calls ?? []).map((call) => ({ role: "tool" as const, tool_call_id: call.id!, content: weatherOf(String(call.args.city)) }));
      const answer = await withTools.invoke([...messages, first, ...results]);
      return { calls: first.tool_calls, answer: answer.content };
    });
    expect(proxied).toEqual(direct);
    expect(proxied.answer).toEqual(
      useResponsesApi ? [expect.objectContaining({ text: "Sunny in Lisbon, rain in Porto." })] : "Sunny in Lisbon, rain in Porto.",
    );
    expectWeatherRun(await historyOf(label));
  });
});
