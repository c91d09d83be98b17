// LangChain.js against the fake upstream, over a tool loop: the runnable piped
// into ChatOpenAI (AD-4) and the middleware of a createAgent agent (AD-9).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BudgetExceededError } from "@/lib/context";
import { readChatRequest } from "@/lib/formats";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyMiddleware, contextPolicyRunnable, createContextPolicy } from "./langchain";
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

/** The scenario's history as LangChain messages. */
function langchainMessages(): BaseMessage[] {
  return [
    new SystemMessage(SYSTEM),
    ...ROUNDS.flatMap((round) => [
      new HumanMessage(round.question),
      new AIMessage({ content: "", tool_calls: [{ id: round.callId, name: "search_flights", args: { to: round.city }, type: "tool_call" }] }),
      new ToolMessage({ content: round.result, tool_call_id: round.callId }),
      new AIMessage(round.answer),
    ]),
    new HumanMessage(LAST_QUESTION),
  ];
}

/** The scenario's tools as LangChain tools an agent runs (their schemas copies: the engine's development checks freeze the scenario's). */
function langchainTools() {
  const [search, book] = structuredClone(TOOLS).map((definition) => definition.function);
  return [
    tool(async () => "no flights", { name: search.name, description: search.description, schema: search.parameters ?? {} }),
    tool(async () => BOOKED, { name: book.name, description: book.description, schema: book.parameters ?? {} }),
  ];
}

describe.each(TEST_PROVIDERS)("LangChain adapters (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const chatModel = () => new ChatOpenAI({ model: "fake-gpt", apiKey: UPSTREAM_KEY, configuration: { baseURL: harness.fake.baseUrl }, maxRetries: 0 });
  const model = () => chatModel().bindTools(TOOLS);

  it("[AD-1][AD-4] the runnable piped into ChatOpenAI: each call of a tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
    const chain = contextPolicyRunnable(requestPolicy(), { tools: TOOLS }).pipe(model());
    harness.fake.enqueue(...bookingScript("call_book_langchain"));
    const messages = langchainMessages();
    const first = await chain.invoke(messages);
    const call = first.tool_calls![0];
    messages.push(first, new ToolMessage({ content: BOOKED, tool_call_id: call.id! }));
    const second = await chain.invoke(messages);
    expect(second.content).toBe(ANSWER);
    const [one, two] = harness.fake.requests;
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: "langchain-1", history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, { label: "langchain-2", history: historyAfterBooking(call.id!), tools: TOOLS, policy });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED });
  });

  it("[AD-1][AD-9] the agent middleware in createAgent: each model call of the tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
    const agent = createAgent({
      model: chatModel(),
      tools: langchainTools(),
      systemPrompt: SYSTEM,
      middleware: [contextPolicyMiddleware(requestPolicy())],
    });
    harness.fake.enqueue(...bookingScript("call_book_langchain_agent"));
    const messages = langchainMessages().slice(1);
    const result = await agent.invoke({ messages });
    expect(result.messages.at(-1)?.text).toBe(ANSWER);
    // The agent's state keeps the whole history: only what each call sends is shaped.
    expect(result.messages.slice(0, messages.length)).toEqual(messages);
    expect(result.messages).toHaveLength(messages.length + 3);
    expect(harness.fake.requests).toHaveLength(2);
    const [one, two] = harness.fake.requests;
    // The agent's tools, counted by the policy, are the ones the model was sent.
    expect(readChatRequest(one.body).tools).toEqual(TOOLS);
    const policy = savedPolicy();
    await expectAsContextLab(test.db, harness, one, { label: "langchain-agent-1", history: history(), tools: TOOLS, policy });
    const rows = await expectAsContextLab(test.db, harness, two, {
      label: "langchain-agent-2",
      history: historyAfterBooking("call_book_langchain_agent"),
      tools: TOOLS,
      policy,
    });
    expect(rows.at(-1)).toMatchObject({ role: "tool", text: BOOKED, toolCallId: "call_book_langchain_agent" });
  });
});

describe("contextPolicyRunnable", () => {
  it("[AD-4] takes a chat prompt template's output; the messages it keeps are the caller's own objects", async () => {
    const prompt = ChatPromptTemplate.fromMessages([["system", SYSTEM], new MessagesPlaceholder("history")]);
    const history = langchainMessages().slice(1);
    const trimmed = await prompt.pipe(contextPolicyRunnable(requestPolicy(), { tools: TOOLS })).invoke({ history });
    expect(trimmed.at(-1)).toBe(history.at(-1));
    // Three rounds kept of five, the newest tool result alone shown.
    expect(trimmed.filter((message) => message.getType() === "human").map((message) => message.text)).toEqual([
      ROUNDS[2].question,
      ROUNDS[3].question,
      LAST_QUESTION,
    ]);
    expect(trimmed.filter((message) => message.getType() === "tool").map((message) => message.text)).toEqual([
      "[earlier tool result omitted]",
      ROUNDS[3].result,
    ]);
  });
});

describe("contextPolicyMiddleware", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  });
  afterAll(() => fake.close());

  it("[AD-1][AD-9] a call over the policy's budget is refused before the model is called (the agent's error has it as its cause), unless asked to send it", async () => {
    const tight = { ...requestPolicy(), tokenBudget: 10 };
    const agent = (middleware: ReturnType<typeof contextPolicyMiddleware>) =>
      createAgent({
        model: new ChatOpenAI({ model: "fake-gpt", apiKey: UPSTREAM_KEY, configuration: { baseURL: fake.baseUrl }, maxRetries: 0 }),
        tools: langchainTools(),
        middleware: [middleware],
      });
    // No system prompt: the system message is the first of the agent's messages.
    const messages = langchainMessages();
    const refused = agent(contextPolicyMiddleware(tight)).invoke({ messages });
    await expect(refused).rejects.toSatisfy(
      (error: Error) => BudgetExceededError.isInstance(error.cause) && error.cause.budget === 10 && error.cause.tokens > 10,
    );
    expect(fake.requests).toHaveLength(0);
    fake.enqueue({ content: ANSWER });
    const sent = await agent(contextPolicyMiddleware(createContextPolicy(tight, { onExceeded: "send" }))).invoke({ messages });
    expect(sent.messages.at(-1)?.text).toBe(ANSWER);
    const body = readChatRequest(fake.requests[0].body);
    expect(body.messages[0]).toEqual({ role: "system", content: SYSTEM });
    expect(body.messages.length).toBeLessThan(messages.length);
  });
});
