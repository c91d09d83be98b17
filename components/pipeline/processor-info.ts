import type { ContextEvent, ProcessorKind } from "@/lib/context/light";

export interface ProcessorInfo {
  label: string;
  event: ContextEvent;
  summary: string;
}

/** What each shipped processor does, and the event it runs on. */
export const PROCESSOR_INFO: Readonly<Record<ProcessorKind, ProcessorInfo>> = {
  message_offloader: { label: "Message offloader", event: "pre_llm_call", summary: "Replaces long messages by a handle marker." },
  dialogue_compressor: { label: "Dialogue compressor", event: "pre_llm_call", summary: "Folds closed tool chains into one summary message." },
  round_window: { label: "Round window", event: "pre_llm_call", summary: "Keeps the last N rounds." },
  summarize: { label: "Summarize", event: "pre_llm_call", summary: "Summarises the oldest rounds over the threshold." },
  token_budget: { label: "Token budget", event: "pre_llm_call", summary: "Drops the oldest rounds until the history fits the budget." },
  clear_tool_uses: {
    label: "Tool-result clearing",
    event: "pre_llm_call",
    summary: "Over a token trigger, clears older tool results (and optionally their calls' inputs), keeping the newest uses.",
  },
  observation_masking: {
    label: "Observation masking",
    event: "pre_llm_call",
    summary: "Shows only the newest tool results; older ones read as a placeholder.",
  },
  auto_compact: { label: "Auto-compaction", event: "pre_llm_call", summary: "Near the window's limit, summarises everything before the recent rounds." },
  token_window: { label: "Token window", event: "pre_llm_call", summary: "Keeps the newest whole rounds that fit a token limit." },
  tool_result_offloader: {
    label: "Tool-result offloader",
    event: "post_tool_call",
    summary: "Truncates large tool results as they arrive; not part of the pre-call run.",
  },
};
