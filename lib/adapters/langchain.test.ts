// LangChain.js: the runnable piped into ChatOpenAI against the fake upstream, over a tool loop (AD4).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness, UPSTREAM_KEY } from "@/tests/proxy/support/harness";
import { contextPolicyRunnable } from "./langchain";
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

describe.each(TEST_PROVIDERS)("LangChain adapter (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);
  const model = () =>
    new ChatOpenAI({ model: "fake-gpt", apiKey: UPSTREAM_KEY, configuration: { baseURL: harness.fake.baseUrl }, maxRetries: 0 }).bindTools(TOOLS);

  it("[AD1][AD4] the runnable piped into ChatOpenAI: each call of a tool loop sends what the Prompt tab previews and the proxy forwards", async () => {
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
});

describe("contextPolicyRunnable", () => {
  it("[AD4] takes a chat prompt template's output; the messages it keeps are the caller's own objects", async () => {
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
