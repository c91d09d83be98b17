// Real data: a tau-bench airline trajectory (sierra-research/tau-bench, MIT; tests/fixtures/README.md), its turns
// repeated into a long session as an imported log reads it: one call per answer, its request the history before it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ContextError, prefixHashWork, type Message } from "@/lib/context";
import { BUILT_IN_MODELS } from "@/lib/models";
import { priceSession } from "./session";
import type { SessionCall } from "./types";

const trajectories = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../tests/fixtures/tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];

/** A session of at least `length` messages: tau-bench trajectory 2's turns repeated after its system prompt. */
function longSession(length: number): SessionCall[] {
  const [system, ...turns] = trajectories[2].traj;
  const history: Message[] = [system];
  while (history.length < length) history.push(...turns.map((message) => ({ ...message })));
  const calls: SessionCall[] = [];
  history.forEach((message, position) => {
    if (message.role !== "assistant") return;
    calls.push({
      conversationId: "session",
      subagent: false,
      listed: true,
      at: null,
      startedAt: null,
      model: "claude-sonnet-4-5",
      usage: null,
      responseId: null,
      exchangeId: null,
      branchId: "main",
      position,
      request: { messages: history.slice(0, position), tools: [] },
      marked: false,
      reply: [message],
      compacted: false,
    });
  });
  return calls;
}

describe("pricing a long session", () => {
  it("[CC-14] hashes each message's prefix once over the whole session, not once per call that repeats it", async () => {
    const calls = longSession(2_000);
    const before = prefixHashWork();
    const cost = await priceSession("session", [calls], BUILT_IN_MODELS);
    expect(cost.calls).toHaveLength(calls.length);
    // Each call's request extends the one before: the last request's length is every prefix there is.
    expect(prefixHashWork() - before).toBe(calls.at(-1)!.request.messages.length);
    const requested = calls.reduce((sum, call) => sum + call.request.messages.length, 0);
    expect(requested).toBeGreaterThan(400 * calls.at(-1)!.request.messages.length);
    // Marked at the system prompt and at the end (CC-6), every call after the first reads what the one before wrote.
    expect(cost.calls.slice(1).every((call) => call.usage.cacheRead > 0 && call.cacheBreak === null)).toBe(true);
  });

  it("[CC-14] lets other work run while it prices, and prices the same as in one go", async () => {
    const calls = longSession(1_000);
    let finished = false;
    const pricing = priceSession("session", [calls], BUILT_IN_MODELS).then((cost) => {
      finished = true;
      return cost;
    });
    // A callback queued now runs at the pricing's first yield: before it ends.
    const finishedWhenOthersRan = await new Promise<boolean>((resolve) => setImmediate(() => resolve(finished)));
    expect(finishedWhenOthersRan).toBe(false);
    const sliced = await pricing;
    expect(await priceSession("session", [calls], BUILT_IN_MODELS)).toEqual(sliced);
  });

  it("[CC-14] stops at its next slice once its caller goes away", async () => {
    const calls = longSession(1_000);
    const gone = new AbortController();
    gone.abort(new Error("the client closed the connection"));
    await expect(priceSession("session", [calls], BUILT_IN_MODELS, gone.signal)).rejects.toThrow(/^pricing cancelled after 0 calls/);
    const leaving = new AbortController();
    const pricing = priceSession("session", [calls], BUILT_IN_MODELS, leaving.signal);
    await new Promise((resolve) => setImmediate(resolve));
    leaving.abort(new Error("the client closed the connection"));
    const error = await pricing.then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(ContextError.isInstance(error)).toBe(true);
    const done = Number(/after (\d+) calls/.exec((error as Error).message)?.[1]);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(calls.length);
  });
});
