// The AI SDK's own tool loop (generateText) against the fake upstream, through the middleware and through prepareStep (AD-3).
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type LanguageModel, type ModelMessage, type PrepareStepFunction } from "ai";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { ANTHROPIC_UPSTREAM_KEY, useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyMiddleware, contextPolicyPrepareStep } from "./ai-sdk";
import { expectAsContextLab } from "./test-support/reference";
import {
  ANSWER,
  BOOKED,
  bookingScript,
  history,
  historyAfterBooking,
  LAST_QUESTION,
  requestPolicy,
  ROUNDS,
  savedPolicy,
  SYSTEM,
  TOOLS,
} from "./test-support/scenario";

/** The scenario's history as an AI SDK app keeps it. */
function modelMessages(): ModelMessage[] {
  return [
    ...ROUNDS.flatMap((round): ModelMessage[] => [
      { role: "user", content: round.question },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: round.callId, toolName: "search_flights", input: { to: round.city } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: round.callId, toolName: "search_flights", output: { type: "text", value: round.result } }] },
      { role: "assistant", content: round.answer },
    ]),
    { role: "user", content: LAST_QUESTION },
  ];
}

const tools = () => ({
  search_flights: tool({
    description: TOOLS[0].function.description,
    inputSchema: jsonSchema<{ to: string }>(TOOLS[0].function.parameters as never),
    execute: async () => "no flights",
  }),
  book_flight: tool({
    description: TOOLS[1].function.description,
    inputSchema: jsonSchema<{ id: string }>(TOOLS[1].function.parameters as never),
    execute: async () => BOOKED,
  }),
});

describe.each(TEST_PROVIDERS)("AI SDK adapters (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  async function runLoop(model: LanguageModel, callId: string, prepareStep?: PrepareStepFunction<ReturnType<typeof tools>>) {
    harness.fake.enqueue(...bookingScript(callId));
    const result = await generateText({
      model,
      system: SYSTEM,
      messages: modelMessages(),
      tools: tools(),
      stopWhen: stepCountIs(3),
      maxRetries: 0,
      prepareStep,
    });
    expect(result.text).toBe(ANSWER);
    expect(harness.fake.requests).toHaveLength(2);
    const [one, two] = harness.fake.requests;
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: `${callId}-1`, history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, { label: `${callId}-2`, history: historyAfterBooking(callId), tools: TOOLS, policy });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED, toolCallId: callId });
    return { one, two };
  }

  it("[AD-1][AD-3] middleware, OpenAI chat provider: each step of the tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
    const openai = createOpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY });
    const model = wrapLanguageModel({ model: openai.chat("fake-gpt"), middleware: contextPolicyMiddleware(requestPolicy()) });
    const { one } = await runLoop(model, "call_book_middleware");
    // Without an output limit of its own the call gets the policy's reserve, as through the proxy.
    expect(one.body?.max_tokens).toBe(requestPolicy().maxOutputTokens);
  });

  it("[AD-1][AD-3] middleware, Anthropic provider: the same messages over /v1/messages", async () => {
    const anthropic = createAnthropic({ baseURL: `${harness.fake.anthropicBaseUrl}/v1`, apiKey: ANTHROPIC_UPSTREAM_KEY });
    const model = wrapLanguageModel({ model: anthropic("fake-claude"), middleware: contextPolicyMiddleware(requestPolicy()) });
    const { one } = await runLoop(model, "toolu_book_middleware");
    expect(one.path).toBe("/v1/messages");
  });

  it("[AD-1][AD-3] prepareStep, given the call's system prompt and tools: each step sends what the Prompt tab previews and the proxy forwards", async () => {
    const openai = createOpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY });
    await runLoop(openai.chat("fake-gpt"), "call_book_step", contextPolicyPrepareStep(requestPolicy(), { system: SYSTEM, tools: TOOLS }));
  });
});
