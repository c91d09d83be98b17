// The OpenAI SDK's own client against the fake upstream, its params passed through the adapter (AD-2).
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "@/lib/context";
import { writeChatRequest, writeResponsesRequest } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyChatRequest, contextPolicyResponsesRequest, createContextPolicy } from "./openai";
import { expectAsContextLab } from "./test-support/reference";
import { BOOKED, bookingScript, history, historyAfterBooking, requestPolicy, savedPolicy, SYSTEM, TOOLS } from "./test-support/scenario";

describe.each(TEST_PROVIDERS)("OpenAI SDK adapters (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const client = () => new OpenAI({ baseURL: harness.fake.baseUrl, apiKey: UPSTREAM_KEY, maxRetries: 0 });

  it("[AD-1][AD-2] chat completions: each call of a tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
    const withPolicy = contextPolicyChatRequest(requestPolicy());
    const written = writeChatRequest({ messages: history(), tools: TOOLS }).value;
    const messages = written.messages as OpenAI.Chat.ChatCompletionMessageParam[];
    const tools = written.tools as OpenAI.Chat.ChatCompletionTool[];
    harness.fake.enqueue(...bookingScript("call_book"));
    const first = await client().chat.completions.create(await withPolicy({ model: "fake-gpt", messages, tools, temperature: 0 }));
    const call = first.choices[0].message.tool_calls![0];
    messages.push(first.choices[0].message, { role: "tool", tool_call_id: call.id, content: BOOKED });
    await client().chat.completions.create(await withPolicy({ model: "fake-gpt", messages, tools, temperature: 0 }));
    const [one, two] = harness.fake.requests;
    // The agent's own fields go along; the policy's reply limit is added as the proxy adds it.
    expect(one.body).toMatchObject({ model: "fake-gpt", temperature: 0, max_tokens: requestPolicy().maxOutputTokens });
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: "chat-1", history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, { label: "chat-2", history: historyAfterBooking("call_book"), tools: TOOLS, policy });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED, toolCallId: "call_book" });
  });

  it("[AD-1][AD-2] responses: instructions and input are rewritten whole; a continued response is refused", async () => {
    const withPolicy = contextPolicyResponsesRequest(requestPolicy());
    // The system prompt as instructions, the rest as input items.
    const written = writeResponsesRequest({ messages: history().slice(1), tools: TOOLS }).value as Pick<
      OpenAI.Responses.ResponseCreateParamsNonStreaming,
      "input" | "tools"
    >;
    harness.fake.enqueue({ content: "Booked." });
    await client().responses.create(await withPolicy({ model: "fake-gpt", instructions: SYSTEM, ...written, store: false }));
    expect(harness.fake.requests[0].body).toMatchObject({ model: "fake-gpt", store: false });
    await expectAsContextLab(test.db, harness, harness.fake.requests[0], { label: "responses", history: history(), tools: TOOLS, policy: savedPolicy() });
    await expect(withPolicy({ model: "fake-gpt", input: "next", previous_response_id: "resp_1" })).rejects.toThrow(/previous_response_id/);
  });

  it("[AD-1] a request over the policy's budget is refused before anything is sent, unless asked to send it", async () => {
    const tight = { ...requestPolicy(), tokenBudget: 10 };
    const messages = writeChatRequest({ messages: history() }).value.messages as OpenAI.Chat.ChatCompletionMessageParam[];
    const refused = contextPolicyChatRequest(tight)({ model: "fake-gpt", messages });
    await expect(refused).rejects.toSatisfy((error) => BudgetExceededError.isInstance(error) && error.budget === 10 && error.tokens > 10);
    const sent = await contextPolicyChatRequest(createContextPolicy(tight, { onExceeded: "send" }))({ model: "fake-gpt", messages });
    expect(sent.messages.length).toBeGreaterThan(0);
    expect(harness.fake.requests).toHaveLength(0);
  });
});
