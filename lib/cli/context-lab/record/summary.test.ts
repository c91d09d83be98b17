import { describe, expect, it } from "vitest";
import type { CallSummary } from "@/lib/calls/types";
import { summarizeRecording } from "./summary";

function call(id: string, conversationId: string, fields: Partial<CallSummary>): CallSummary {
  return {
    id,
    conversationId,
    branchId: "b",
    createdAt: "2026-11-28T00:00:00.000Z",
    protocol: "openai-chat",
    model: "gpt-4o-mini",
    status: 200,
    outcome: "ok",
    error: null,
    streamed: false,
    latencyMs: 10,
    retries: 0,
    retryAfter: null,
    usage: null,
    cost: null,
    requestMessages: 2,
    sentMessages: null,
    tokens: null,
    ...fields,
  };
}

const conversations = [
  { id: "c1", title: "bot", recordKey: "bot" },
  { id: "c2", title: "bot#1a2b3c4d", recordKey: "bot#1a2b3c4d" },
];

describe("record's summary", () => {
  it("[PK-11] counts calls, tokens, the cache hit share of input tokens and the cost, per conversation URL", () => {
    const calls = [
      call("x1", "c1", { usage: { input: 1_000, output: 100, cached: 0, cacheWrite: 0 }, cost: 0.0012 }),
      call("x2", "c1", { usage: { input: 3_000, output: 50, cached: 2_000, cacheWrite: 0 }, cost: 0.002 }),
      call("x3", "c2", { outcome: "failed", status: 429, usage: null, cost: null }),
    ];
    expect(summarizeRecording({ label: "bot", url: "http://127.0.0.1:3000", conversations, calls, unrecorded: 1, exitCode: 3 })).toEqual([
      'context-lab record: "bot" made 4 calls; the command exited with 3',
      "  http://127.0.0.1:3000/c/c1  2 calls  (bot)",
      "  http://127.0.0.1:3000/c/c2  1 call  (bot#1a2b3c4d)",
      "  calls        4: 2 ok, 1 failed, 1 not recorded yet",
      "  tokens       4,000 in, 150 out (1 call reported no usage)",
      "  cache hits   50.0% of input tokens (2,000 read from the cache)",
      "  cost         $0.0032 (1 call without a known price)",
    ]);
  });

  it("[PK-11] says so when no call reached the proxy", () => {
    const lines = summarizeRecording({ label: "bot", url: "http://127.0.0.1:3000", conversations: [], calls: [], unrecorded: 0, exitCode: 0 });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("no call reached the proxy");
  });
});
