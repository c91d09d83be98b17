import type { AssembledPrompt } from "@/lib/client";

const budget = { contextWindow: 8_000, system: 40, tools: 60, reserve: 1_000, history: 6_900, overflow: 0, limit: 2_000, projected: 400 };

/** A prompt with every section kind: 40 + 60 + 100 + 50 + 200 + 50 = 500 tokens. */
export const OK_PROMPT: AssembledPrompt = {
  status: "ok",
  sections: [
    { kind: "system", label: "System prompt", messages: [{ role: "system", content: "You are an airline agent." }], tokens: 40 },
    { kind: "tools", label: "Tools: 2 definitions", messages: [], tokens: 60 },
    { kind: "checkpoint", label: "Checkpoint v1 (summary of messages 0–23)", messages: [{ role: "system", content: "[Conversation summary] The user wants a refund." }], tokens: 100, source: { checkpointId: "c1", summaryId: "s1", positions: [0, 24] } },
    { kind: "retrieved", label: "Retrieved: summary 1 (score 4.12)", messages: [{ role: "system", content: "[Retrieved summary of messages 0–11]\nbooking ABC" }], tokens: 50, source: { summaryId: "s0", positions: [0, 12], score: 4.12 } },
    {
      kind: "recent",
      label: "Recent: 2 rounds (messages 24–29)",
      messages: [
        { role: "user", content: "cancel it" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "cancel_reservation", arguments: '{"id":"ABC"}' } }] },
        { role: "tool", content: "cancelled", tool_call_id: "call_1" },
      ],
      tokens: 200,
      source: { positions: [24, 30] },
    },
    { kind: "current", label: "Current turn", messages: [{ role: "user", content: "and the refund?" }], tokens: 50 },
  ],
  messages: [],
  tools: [],
  tokens: { system: 40, tools: 60, history: 400, total: 500 },
  budget,
  compaction: null,
};

export const EXCEEDED_PROMPT: AssembledPrompt = {
  ...OK_PROMPT,
  status: "budget_exceeded",
  messages: [],
  budget: { ...budget, limit: 300, projected: 400 },
  shrunk: ["drop-retrieved", "keep-2-rounds", "keep-1-round"],
  exceeded: { budget: 300, tokens: 400, reason: "the request needs 400 tokens besides system messages and tools, but the limit is 300 (token budget 300, window history 6900): no model call should be made" },
};
