import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { recordedFor, useProxyHarness, type ProxyHarness } from "./support/harness";

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const AGENTS = 20;
const TURNS = 30;

/** One agent's run: every turn sends the whole history so far plus a new question; odd turns stream. */
async function runAgent(harness: Pick<ProxyHarness, "agent">, agent: number): Promise<ChatMessage[]> {
  const client = harness.agent(`agent-${agent}`);
  const history: ChatMessage[] = [{ role: "system", content: `You are agent ${agent}.` }];
  for (let turn = 0; turn < TURNS; turn += 1) {
    history.push({ role: "user", content: `agent ${agent} turn ${turn}` });
    let content = "";
    if (turn % 2 === 1) {
      const stream = await client.chat.completions.create({ model: "fake-gpt", messages: history, stream: true });
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
    } else {
      content = (await client.chat.completions.create({ model: "fake-gpt", messages: history })).choices[0].message.content ?? "";
    }
    history.push({ role: "assistant", content });
  }
  return history;
}

describe.each(TEST_PROVIDERS)("proxy: many agents at once (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const harness = useProxyHarness(test);

  it(`records every turn of ${AGENTS} agents × ${TURNS} turns, in order, each agent on one branch`, { timeout: 600_000 }, async () => {
    const histories = await Promise.all(Array.from({ length: AGENTS }, (_, agent) => runAgent(harness, agent)));
    await harness.recorded();

    for (let agent = 0; agent < AGENTS; agent += 1) {
      const recorded = await recordedFor(test.db, `agent-${agent}`);
      expect(recorded.branches, `agent ${agent}`).toHaveLength(1);
      const stored = recorded.histories.get(recorded.branches[0].id)!;
      expect(stored, `agent ${agent}`).toEqual(histories[agent]);
      expect(stored.filter((message) => message.role === "assistant").map((message) => message.content)).toEqual(
        Array.from({ length: TURNS }, (_, turn) => `echo: agent ${agent} turn ${turn}`),
      );
      expect(recorded.exchanges.map((exchange) => [exchange.status, exchange.error])).toEqual(Array(TURNS).fill([200, null]));
      const asked = recorded.exchanges.map((exchange) => (exchange.request as unknown as { messages: ChatMessage[] }).messages.at(-1)?.content);
      expect(asked).toEqual(Array.from({ length: TURNS }, (_, turn) => `agent ${agent} turn ${turn}`));
      expect(recorded.exchanges.map((exchange) => exchange.streamed)).toEqual(Array.from({ length: TURNS }, (_, turn) => turn % 2 === 1));
    }
  });
});
