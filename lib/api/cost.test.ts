// A session's cost from real Claude Code files imported through the import route, on both databases (CC-10–CC-12).
import { describe, expect, it } from "vitest";
import * as costRoute from "@/app/api/conversations/[id]/cost/route";
import * as importRoute from "@/app/api/conversations/import/route";
import type { ConversationCost } from "@/lib/cost/types";
import { findModel } from "@/lib/models";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { readFixture } from "@/tests/fixtures/import/load";
import { TEST_PROVIDERS } from "@/tests/support/db";

const COMPACTION = "claude-code-2.0.76-compaction.jsonl";
const TASK = "claude-code-2.1.19-task-agent-progress.jsonl";

type Line = Record<string, unknown>;
interface WireMessage {
  id?: string;
  model?: string;
  usage?: Record<string, unknown>;
}

/** Every API message of the file (its own lines and the subagent's inside progress lines), by message id: the last line's usage, as the call ended. */
function billedMessages(name: string): Map<string, WireMessage> {
  const calls = new Map<string, WireMessage>();
  for (const text of readFixture(`formats/${name}`).split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as Line;
    const inner = (line.data as { message?: { message?: WireMessage } } | undefined)?.message?.message;
    const message = line.type === "assistant" ? (line.message as WireMessage) : inner;
    if (message?.id === undefined || message.usage === undefined || message.model === "<synthetic>") continue;
    calls.set(message.id, message);
  }
  return calls;
}

const count = (value: unknown) => (typeof value === "number" ? value : 0);

/** The bill: each call once, at the catalogue's input and output prices and Anthropic's published multipliers (read 0.1×, 5-minute write 1.25×, 1-hour write 2×). */
function billOf(messages: Map<string, WireMessage>): number {
  let dollars = 0;
  for (const message of messages.values()) {
    const prices = findModel(message.model ?? "").entry.prices!;
    const usage = message.usage!;
    const split = (usage.cache_creation ?? {}) as Record<string, unknown>;
    dollars +=
      (count(usage.input_tokens) * prices.input +
        count(usage.cache_read_input_tokens) * prices.input * 0.1 +
        count(split.ephemeral_5m_input_tokens) * prices.input * 1.25 +
        count(split.ephemeral_1h_input_tokens) * prices.input * 2 +
        count(usage.output_tokens) * prices.output) /
      1_000_000;
  }
  return dollars;
}

async function importAndCost(name: string): Promise<{ cost: ConversationCost; conversationIds: string[] }> {
  const imported = await call(importRoute.POST, {
    url: `/api/conversations/import?filename=${encodeURIComponent(name)}`,
    body: readFixture(`formats/${name}`),
    headers: { "content-type": "text/plain" },
  });
  expect(imported.status).toBe(201);
  const conversationIds = imported.body.conversations.map((entry: { conversation: { id: string } }) => entry.conversation.id);
  const { status, body } = await call<ConversationCost, { id: string }>(costRoute.GET, { params: { id: conversationIds[0] } });
  expect(status).toBe(200);
  return { cost: body, conversationIds };
}

/** Calls that read nothing while the call before them in the same conversation had left something cached. */
function coldAfterCached(cost: ConversationCost) {
  const last = new Map<string, number>();
  return cost.calls.filter((entry) => {
    const before = last.get(entry.conversationId);
    last.set(entry.conversationId, entry.usage.cacheRead + entry.usage.cacheWrite5m + entry.usage.cacheWrite1h);
    return before !== undefined && before > 0 && entry.usage.cacheRead === 0;
  });
}

describe.each(TEST_PROVIDERS)("GET /api/conversations/[id]/cost (%s)", (provider) => {
  useApiTestDatabase(provider);

  it("[CC-10][CC-11] a compacted Claude Code session costs its bill: one entry per API call, in order, priced as reported", async () => {
    const messages = billedMessages(COMPACTION);
    const { cost } = await importAndCost(COMPACTION);
    expect(cost.calls).toHaveLength(messages.size);
    expect(cost.calls.map((entry) => entry.responseId)).toEqual([...messages.keys()]);
    expect(cost.calls.every((entry) => entry.source === "reported" && entry.predicted !== undefined)).toBe(true);
    expect(cost.calls.map((entry) => entry.index)).toEqual(cost.calls.map((_, index) => index));
    const bill = billOf(messages);
    expect(Math.abs(cost.totalUsd - bill) / bill).toBeLessThan(0.01);
    expect(cost.unpricedCalls).toBe(0);
  });

  it("[CC-9][CC-12] every call that read nothing after a cached call says why: the pauses outlived the 5-minute cache, the compaction rewrote the prefix", async () => {
    const { cost } = await importAndCost(COMPACTION);
    const cold = coldAfterCached(cost);
    expect(cold).toHaveLength(3);
    for (const entry of cold) expect(entry.cacheBreak).toMatchObject({ reason: "idle-gap", detail: expect.stringMatching(/min .*5-minute/) });
    const afterCompaction = cost.calls.find((entry) => entry.responseId === "msg_014tnc2UqQTdXiRZYV4VwKs8")!;
    expect(afterCompaction.cacheBreak).toMatchObject({ reason: "message-edited", detail: expect.stringContaining("compacted"), position: { index: 0 } });
    const points = cost.timeline.filter((point) => point.expired);
    expect(points.map((point) => point.index)).toEqual(cold.map((entry) => entry.index));
    expect(points.every((point) => point.ttlSeconds === 300 && (point.gapSeconds ?? 0) > 300)).toBe(true);
    // The prediction reads after the compaction what the unchanged leading part held; reported, the agent's system prompt and tools.
    expect(afterCompaction.predicted!.usage.cacheRead).toBeGreaterThan(0);
  });

  it("[CC-10][CC-11] a session with a Task subagent: the subagent's calls are included, marked and in time order, and the total is the bill", async () => {
    const messages = billedMessages(TASK);
    const { cost, conversationIds } = await importAndCost(TASK);
    expect(cost.calls).toHaveLength(messages.size);
    const subagentCalls = cost.calls.filter((entry) => entry.subagent !== undefined);
    expect(subagentCalls).toHaveLength(10);
    expect(subagentCalls.every((entry) => entry.subagent?.conversationId === conversationIds[1])).toBe(true);
    const times = cost.calls.map((entry) => Date.parse(entry.at!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const bill = billOf(messages);
    expect(Math.abs(cost.totalUsd - bill) / bill).toBeLessThan(0.01);
    for (const entry of coldAfterCached(cost)) expect(entry.cacheBreak?.reason).toBeTruthy();
    const own = await call<ConversationCost, { id: string }>(costRoute.GET, { url: "/api/test?subagents=false", params: { id: conversationIds[0] } });
    expect(own.body.calls).toHaveLength(messages.size - 10);
  });

  it("[CC-11] answers 404 for a conversation that does not exist and 400 for a bad query", async () => {
    expect((await call(costRoute.GET, { params: { id: "missing" } })).status).toBe(404);
    expect((await call(costRoute.GET, { url: "/api/test?subagents=maybe", params: { id: "missing" } })).status).toBe(400);
  });
});
