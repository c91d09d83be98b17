// The default pipeline's re-runs cost what changed (E-I3, E-PL6, E-T6): counted in
// encode calls over real tau-bench trajectories (sierra-research/tau-bench, MIT
// licence; see test-support/tau-bench.ts) laid end to end.
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeConfig } from "./config";
import { defaultPipeline } from "./default-pipeline";
import type { Message } from "./messages";
import { contextWith, historyOf, user } from "./test-support/conversation";
import { allTrajectories } from "./test-support/tau-bench";
import { TiktokenCounter } from "./tokens/counter";

const config = makeConfig("copilot", { extra: { token_budget: 8_000, token_encoding: "cl100k_base" } });

/** About `size` messages: the first trajectory's system prompt, then the trajectories' turns end to end, ending on a user turn. */
function conversation(size: number): Message[] {
  const trajectories = allTrajectories();
  const messages: Message[] = [trajectories[0].messages[0]];
  for (let order = 0; messages.length < size; order += 1)
    for (const message of trajectories[order % trajectories.length].messages) if (message.role !== "system") messages.push({ ...message });
  return [...messages, user("Before we finish: what is my baggage allowance?")];
}

async function run(history: readonly Message[]): Promise<readonly Message[]> {
  const ctx = contextWith(history, config);
  await defaultPipeline(config).fire("pre_llm_call", ctx);
  return historyOf(ctx);
}

/** The texts encoded while `work` runs, by any counter. */
async function encodedDuring(work: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(TiktokenCounter.prototype, "countText");
  try {
    await work();
    return spy.mock.calls.map(([text]) => text ?? "");
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("default pipeline re-runs", () => {
  it.each([1_000, 4_000])("[E-PL6][E-I3][E-T6] at %i messages a warm re-run encodes nothing and an appended turn encodes only what is new", async (size) => {
    const history = conversation(size);
    const cold = await run(history);
    let warm: readonly Message[] = [];
    expect(await encodedDuring(async () => (warm = await run(history)))).toEqual([]);
    expect(warm).toBe(cold);

    const turn = user(`One more thing (${size}): can I change my seat?`);
    const appended = [...history, turn];
    let after: readonly Message[] = [];
    const encoded = await encodedDuring(async () => (after = await run(appended)));
    // Nothing the conversation already held is encoded again: only the new turn and the messages the processors wrote for it.
    const held = new Set(history.flatMap((message) => (message.content && message.content.length > 24 ? [message.content] : [])));
    expect(encoded.filter((text) => held.has(text))).toEqual([]);
    expect(encoded).toContain(turn.content);
    const written = new Set(after.flatMap((message) => (message.engine ? [message.content ?? ""] : [])));
    expect(encoded.filter((text) => text.length > 24 && text !== turn.content && !written.has(text))).toEqual([]);
    // The same history as a cold run over fresh copies of every message.
    expect(after).toEqual(await run(appended.map((message) => ({ ...message }))));
  });

  it("[E-I3] the encode calls of an appended turn do not grow with the history", async () => {
    const calls: number[] = [];
    for (const size of [1_000, 4_000]) {
      const history = conversation(size);
      await run(history);
      calls.push((await encodedDuring(() => run([...history, user("And my loyalty points?")]))).length);
    }
    expect(calls[1]).toBeLessThanOrEqual(calls[0] + 4);
  });
});
