import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as replayRoute from "@/app/api/branches/[branchId]/replay/route";
import { PRESETS, type Message } from "@/lib/context";
import { appendMessagesBulk, createConversation, type Database } from "@/lib/db";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { MAX_KEPT_REPLAY_MESSAGES, MAX_REPLAY_MESSAGES } from "./replay";

// [IN-8] POST /api/branches/<id>/replay has a size and a time limit, and stops when its client goes away.

const policies = [{ id: "nav", label: "Navigator", policy: PRESETS.navigator.policy }];

/** A history of `calls` model calls: each a user question, a tool call and result, and an answer (four messages). */
function history(calls: number): Message[] {
  const messages: Message[] = [{ role: "system", content: "You help." }];
  for (let index = 0; index < calls; index += 1) {
    messages.push({ role: "user", content: `question ${index} about the booking` });
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: `c${index}`, type: "function", function: { name: "find", arguments: `{"q":${index}}` } }],
    });
    messages.push({ role: "tool", tool_call_id: `c${index}`, content: `result ${index} `.repeat(20) });
    messages.push({ role: "assistant", content: `answer ${index}` });
  }
  return messages;
}

async function branchOf(db: Database, messages: Message[]): Promise<string> {
  const { branch } = await createConversation(db, { title: "replayed", source: "api" });
  for (let start = 0; start < messages.length; start += 5_000)
    await appendMessagesBulk(
      db,
      branch.id,
      messages.slice(start, start + 5_000).map((message) => ({ message, tokens: 5 })),
      { expectedLength: start },
    );
  return branch.id;
}

function replayRequest(branchId: string, body: unknown, signal?: AbortSignal) {
  const request = new Request(`http://localhost/api/branches/${branchId}/replay`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
    signal,
  });
  return replayRoute.POST(request, { params: Promise.resolve({ branchId }) });
}

describe("replay limits (sqlite)", () => {
  const test = useApiTestDatabase("sqlite");
  let configured: string | undefined;
  beforeEach(() => {
    configured = process.env.CONTEXT_LAB_REPLAY_TIMEOUT_MS;
  });
  afterEach(() => {
    if (configured === undefined) delete process.env.CONTEXT_LAB_REPLAY_TIMEOUT_MS;
    else process.env.CONTEXT_LAB_REPLAY_TIMEOUT_MS = configured;
  });

  it("[IN-8] refuses a branch longer than the limit with 413 and the figures, before replaying", async () => {
    const branchId = await branchOf(test.db, history(5_000));
    const { status, body } = await call(replayRoute.POST, { params: { branchId }, body: { policies } });
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: "payload_too_large", messages: 20_001, limit: MAX_REPLAY_MESSAGES });
    expect(body.error.message).toContain("fork a branch at an earlier message");
  }, 60_000);

  it("[IN-8] keepMessages has a lower limit, since its answer grows with the square of the branch", async () => {
    const branchId = await branchOf(test.db, history(250));
    const kept = await call(replayRoute.POST, { params: { branchId }, body: { policies, keepMessages: true } });
    expect(kept.status).toBe(413);
    expect(kept.body.error).toMatchObject({ code: "payload_too_large", messages: 1_001, limit: MAX_KEPT_REPLAY_MESSAGES });
    const figures = await call(replayRoute.POST, { params: { branchId }, body: { policies } });
    expect(figures.status).toBe(200);
    expect(figures.body.runs[0].replay.calls).toHaveLength(500);
  });

  it("[IN-8] stops at the time limit with 422 replay_timeout, saying how far it got", async () => {
    process.env.CONTEXT_LAB_REPLAY_TIMEOUT_MS = "1";
    const branchId = await branchOf(test.db, history(500));
    const { status, body } = await call(replayRoute.POST, { params: { branchId }, body: { policies } });
    expect(status).toBe(422);
    expect(body.error).toMatchObject({ code: "replay_timeout", limitMs: 1 });
    expect(body.error.done).toBeLessThan(500);
  });

  it("[IN-8] stops as soon as the client goes away", async () => {
    const branchId = await branchOf(test.db, history(500));
    const gone = new AbortController();
    gone.abort(new Error("the client closed the connection"));
    const before = await replayRequest(branchId, { policies }, gone.signal);
    expect(before.status).toBe(422);
    expect((await before.json()).error.message).toBe("replay cancelled after 0 calls");

    const leaving = new AbortController();
    const answer = replayRequest(branchId, { policies }, leaving.signal);
    setTimeout(() => leaving.abort(new Error("the client closed the connection")), 20);
    const during = await answer;
    expect(during.status).toBe(422);
    const { error } = await during.json();
    expect(error.message).toMatch(/^replay cancelled after \d+ calls?$/);
    expect(Number(/after (\d+)/.exec(error.message)?.[1])).toBeLessThan(500);
  });
});
