import { budgetVerdict } from "@/lib/context/light";
import type { PromptResponse } from "@/lib/client";

const messages: PromptResponse["messages"] = [
  { role: "system", content: "You are an airline agent." },
  {
    role: "system",
    content: "[Conversation Summary] Messages 0–23 of this conversation, summarized:\nThe user wants a refund.",
    engine: { kind: "conversation-summary" },
  },
  { role: "system", content: "[Retrieved summary of messages 0–11]\nbooking ABC", engine: { kind: "retrieved-memory" } },
  { role: "user", content: "cancel it" },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "cancel_reservation", arguments: '{"id":"ABC"}' } }] },
  { role: "tool", content: "cancelled", tool_call_id: "call_1" },
  { role: "user", content: "and the refund?" },
];

/** A request with every section kind: 40 + 60 + 100 + 50 + 200 + 50 = 500 tokens. */
export const OK_PROMPT: PromptResponse = {
  status: "ok",
  model: "gpt-4o",
  maxTokens: 1_000,
  messages,
  tools: [],
  sections: [
    { kind: "system", label: "System prompt", indices: [0], tokens: 40 },
    { kind: "tools", label: "Tools: 2 definitions", indices: [], tokens: 60 },
    { kind: "summary", label: "Checkpoint v1 (summary of messages 0–23)", indices: [1], tokens: 100 },
    { kind: "retrieved", label: "Retrieved: summary 1", indices: [2], tokens: 50 },
    { kind: "recent", label: "Recent: 3 messages", indices: [3, 4, 5], tokens: 197 },
    { kind: "current", label: "Current turn", indices: [6], tokens: 50 },
  ],
  steps: [],
  verdict: budgetVerdict({ system: 40, tools: 60, history: 400, priming: 3, total: 500 }, { contextWindow: 8_000, reserve: 1_000, budget: 2_000 }),
  summary: { id: "s1", text: "The user wants a refund.", fromPosition: 0, toPosition: 24, label: "Checkpoint v1 (summary of messages 0–23)" },
  retrieved: [],
  candidate: 7,
  repairs: [],
  offloaded: [],
  tokenizer: { model: "gpt-4o", match: "exact", encoding: "o200k_base", exact: true },
  compaction: null,
  length: 30,
};

export const EXCEEDED_PROMPT: PromptResponse = {
  ...OK_PROMPT,
  status: "budget_exceeded",
  verdict: budgetVerdict({ system: 40, tools: 60, history: 400, priming: 3, total: 500 }, { contextWindow: 8_000, reserve: 1_000, budget: 300 }),
};
