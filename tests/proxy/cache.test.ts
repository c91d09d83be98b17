// The cache model against an upstream that caches prompts as the providers do, through the proxy with the official clients (CC-7–CC-9, CC-11).
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import * as costRoute from "@/app/api/conversations/[id]/cost/route";
import type { ConversationCost, CostCall } from "@/lib/cost/types";
import { getConversationsByRecordKeyFamily } from "@/lib/db";
import { call } from "@/tests/api/support";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { useProxyHarness } from "./support/harness";

const RULES = Array.from({ length: 160 }, (_, index) => `Rule ${index + 1}: confirm the traveller's dates, fares and seat before booking anything.`).join("\n");
const SYSTEM = `You are a travel agent.\n${RULES}`;
const EDITED_SYSTEM = `You are a careful travel agent.\n${RULES}`;
const MINUTE = 60_000;
const TURNS = ["A flight to Lisbon?", "And back on Friday?", "Window seat, please.", "What does it cost?", "Book it."];

const schema = { type: "object" as const, properties: { to: { type: "string" } }, required: ["to"] };

describe.each(TEST_PROVIDERS)("proxy: prompt cache reported and predicted (%s)", (provider) => {
  const test = useTestDatabase(provider);
  let now = Date.parse("2026-03-02T09:00:00Z");
  // Claude Sonnet 4.6 caches prefixes of 2,048 tokens or more.
  const harness = useProxyHarness(test, { fake: { promptCache: { now: () => now, anthropicMinimum: 2048 } } });

  beforeEach(() => {
    now = Date.parse("2026-03-02T09:00:00Z");
    // The recorder stamps each answer with the time: it runs on the test's clock, as the fake's cache does.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function advance(milliseconds: number) {
    now += milliseconds;
    vi.setSystemTime(now);
  }

  /**
   * The session's calls: a changed system prompt continues the agent's
   * conversation (P-SP1), so the key records one conversation whose calls
   * are weighed each against the one before.
   */
  async function costOf(label: string): Promise<CostCall[]> {
    await harness.recorded();
    const conversations = await getConversationsByRecordKeyFamily(test.db, label);
    expect(conversations).toHaveLength(1);
    const calls: CostCall[] = [];
    for (const conversation of conversations) {
      const { status, body } = await call<ConversationCost, { id: string }>(costRoute.GET, { params: { id: conversation.id } });
      expect(status).toBe(200);
      expect(body.totalUsd).toBeCloseTo(
        body.calls.reduce((sum, entry) => sum + (entry.costUsd ?? 0), 0),
        10,
      );
      calls.push(...body.calls);
    }
    return calls;
  }

  /** CC11: on every call the prediction is what the upstream reported. */
  function expectAgreement(calls: readonly CostCall[]) {
    for (const entry of calls) {
      expect(entry.source, `call ${entry.index}`).toBe("reported");
      const { cacheRead, cacheWrite5m, cacheWrite1h, input } = entry.predicted!.usage;
      expect({ cacheRead, cacheWrite5m, cacheWrite1h, input }, `call ${entry.index}`).toEqual({
        cacheRead: entry.usage.cacheRead,
        cacheWrite5m: entry.usage.cacheWrite5m,
        cacheWrite1h: entry.usage.cacheWrite1h,
        input: entry.usage.input,
      });
      expect(entry.difference).toMatchObject({ cacheRead: 0, cacheWrite: 0, input: 0 });
    }
  }

  it("[CC-7][CC-9][CC-11] Anthropic: 1-hour and 5-minute marks, a changed system prompt, reordered tools and a pause past the 5-minute TTL, each with its reason", async () => {
    const client = new Anthropic({ baseURL: harness.anthropicBaseUrl, apiKey: "ctxlab-claude-cache", maxRetries: 0 });
    const tools: Anthropic.Tool[] = [
      { name: "search_flights", description: "Find flights", input_schema: schema },
      { name: "book_flight", description: "Book a flight", input_schema: schema },
    ];
    const history: Anthropic.MessageParam[] = [];
    async function turn(text: string, system: string, offered: Anthropic.Tool[]) {
      // Marks as coding agents set them: the end of the system prompt for an hour, the newest message for 5 minutes.
      const marked: Anthropic.MessageParam[] = [...history, { role: "user", content: [{ type: "text", text, cache_control: { type: "ephemeral" } }] }];
      const answer = await client.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 256,
        system: [{ type: "text", text: system, cache_control: { type: "ephemeral", ttl: "1h" } }],
        tools: offered,
        messages: marked,
      });
      history.push(
        { role: "user", content: text },
        { role: "assistant", content: answer.content.map((block) => (block.type === "text" ? block.text : "")).join("") },
      );
      // The recorder stamps the answer when it writes it: it writes before the clock moves on.
      await harness.recorded();
      return answer;
    }

    const first = await turn(TURNS[0], SYSTEM, tools);
    expect(first.usage.cache_creation?.ephemeral_1h_input_tokens).toBeGreaterThan(2048);
    expect(first.usage.cache_creation?.ephemeral_5m_input_tokens).toBeGreaterThan(0);
    advance(30_000);
    const second = await turn(TURNS[1], SYSTEM, tools);
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(2048);
    advance(30_000);
    await turn(TURNS[2], EDITED_SYSTEM, tools);
    advance(30_000);
    await turn(TURNS[3], EDITED_SYSTEM, [...tools].reverse());
    advance(6 * MINUTE);
    await turn(TURNS[4], EDITED_SYSTEM, [...tools].reverse());

    const calls = await costOf("claude-cache");
    expect(calls).toHaveLength(5);
    expectAgreement(calls);
    expect(calls.map((entry) => entry.cacheBreak?.reason ?? null)).toEqual([null, null, "system-changed", "tools-reordered", "idle-gap"]);
    expect(calls[2].cacheBreak).toMatchObject({ detail: expect.stringContaining("careful"), position: { section: "system", index: 0 } });
    expect(calls[3].cacheBreak).toMatchObject({
      detail: expect.stringContaining("search_flights, book_flight became book_flight, search_flights"),
      position: { section: "tools", index: 0, tokens: 0 },
    });
    // The hour-long system prompt outlived the pause; the 5-minute messages did not.
    expect(calls[4].cacheBreak?.detail).toBe("6 min idle: longer than the 5-minute cache lives");
    expect(calls[4].usage.cacheRead).toBe(calls[3].usage.cacheWrite1h);
  });

  it("[CC-8][CC-9][CC-11] OpenAI: automatic caching in 128-token steps, a changed system prompt, reordered tools and a pause past the TTL", async () => {
    const client = new OpenAI({ baseURL: harness.baseUrl, apiKey: "ctxlab-gpt-cache", maxRetries: 0 });
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      { type: "function", function: { name: "search_flights", description: "Find flights", parameters: schema } },
      { type: "function", function: { name: "book_flight", description: "Book a flight", parameters: schema } },
    ];
    const history: OpenAI.Chat.ChatCompletionMessageParam[] = [];
    async function turn(text: string, system: string, offered: OpenAI.Chat.ChatCompletionTool[]) {
      history.push({ role: "user", content: text });
      const answer = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "system", content: system }, ...history], tools: offered });
      history.push({ role: "assistant", content: answer.choices[0].message.content });
      await harness.recorded();
      return answer;
    }

    await turn(TURNS[0], SYSTEM, tools);
    advance(30_000);
    const second = await turn(TURNS[1], SYSTEM, tools);
    const cached = second.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached).toBeGreaterThan(1024);
    expect((cached - 1024) % 128).toBe(0);
    advance(30_000);
    await turn(TURNS[2], EDITED_SYSTEM, tools);
    advance(30_000);
    await turn(TURNS[3], EDITED_SYSTEM, [...tools].reverse());
    advance(6 * MINUTE);
    await turn(TURNS[4], EDITED_SYSTEM, [...tools].reverse());

    const calls = await costOf("gpt-cache");
    expect(calls).toHaveLength(5);
    expectAgreement(calls);
    expect(calls.map((entry) => entry.cacheBreak?.reason ?? null)).toEqual([null, null, "system-changed", "tools-reordered", "idle-gap"]);
    // Automatic caches bill no writes.
    expect(calls.every((entry) => entry.usage.cacheWrite5m + entry.usage.cacheWrite1h === 0)).toBe(true);
  });
});
