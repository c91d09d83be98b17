import type { StepSummary } from "@/lib/playground/protocol";

/** A three-step trace for the chart and table tests. */
export const STEPS: StepSummary[] = [
  {
    processor: "message_offloader",
    messagesBefore: 120,
    messagesAfter: 120,
    tokensBefore: 40_000,
    tokensAfter: 30_000,
    ms: 1.5,
    stateKeys: ["history", "offloaded_messages"],
    effects: [
      { kind: "offloaded", before: [[4, 5]], after: [[4, 5]], handle: "off_0123456789ab" },
      { kind: "offloaded", before: [[9, 10]], after: [[9, 10]], handle: "off_ba9876543210" },
    ],
  },
  {
    processor: "round_window",
    messagesBefore: 120,
    messagesAfter: 80,
    tokensBefore: 30_000,
    tokensAfter: 20_000,
    ms: 0.4,
    stateKeys: ["history"],
    effects: [{ kind: "dropped", before: [[1, 41]], after: [] }],
  },
  {
    processor: "token_budget",
    messagesBefore: 80,
    messagesAfter: 80,
    tokensBefore: 20_000,
    tokensAfter: 20_000,
    ms: 12.25,
    stateKeys: ["token_budget_trimmed"],
    effects: [],
  },
];
