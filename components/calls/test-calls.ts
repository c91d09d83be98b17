import type { CallSummary } from "@/lib/calls/types";

/** A described call: an answered gpt-4o chat call unless `changes` say otherwise. */
export function callSummary(id: string, changes: Partial<CallSummary> = {}): CallSummary {
  return {
    id,
    conversationId: "c1",
    branchId: "main",
    createdAt: "2026-11-23T12:00:00.000Z",
    protocol: "openai-chat",
    model: "gpt-4o",
    status: 200,
    outcome: "ok",
    error: null,
    streamed: false,
    latencyMs: 420,
    retries: 0,
    retryAfter: null,
    usage: { input: 1200, output: 80, cached: 1024, cacheWrite: 0 },
    cost: 0.0025,
    requestMessages: 2,
    sentMessages: 2,
    tokens: { encoding: "o200k_base", exact: true, system: 100, tools: 50, history: 0, new: 30, total: 180 },
    ...changes,
  };
}

/** What the proxy records for a 429: no usage, the upstream's error and retry advice. */
export function rateLimitedCall(id: string, changes: Partial<CallSummary> = {}): CallSummary {
  return callSummary(id, {
    status: 429,
    outcome: "failed",
    error: { source: "upstream", type: "rate_limit_exceeded", message: "Rate limit reached for gpt-4o", code: "rate_limit_exceeded" },
    retryAfter: "2 s",
    usage: null,
    cost: null,
    latencyMs: 12,
    ...changes,
  });
}
