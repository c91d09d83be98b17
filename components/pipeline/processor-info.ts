import { DEFAULT_PROCESSOR_ORDER, type ContextEvent, type ProcessorKind, type ProcessorSpec } from "@/lib/context/light";

export interface ProcessorInfo {
  label: string;
  event: ContextEvent;
  summary: string;
}

/** What each shipped processor does, and the event it runs on (seed 000 §8). */
export const PROCESSOR_INFO: Readonly<Record<ProcessorKind, ProcessorInfo>> = {
  message_offloader: { label: "Message offloader", event: "pre_llm_call", summary: "Replaces long messages by a handle marker." },
  dialogue_compressor: { label: "Dialogue compressor", event: "pre_llm_call", summary: "Folds closed tool chains into one summary message." },
  round_window: { label: "Round window", event: "pre_llm_call", summary: "Keeps the last N rounds." },
  summarize: { label: "Summarize", event: "pre_llm_call", summary: "Summarises the oldest rounds over the threshold." },
  token_budget: { label: "Token budget", event: "pre_llm_call", summary: "Drops the oldest rounds until the history fits the budget." },
  tool_result_offloader: { label: "Tool-result offloader", event: "post_tool_call", summary: "Truncates large tool results as they arrive; not part of the pre-call run." },
};

/** Every shipped processor exactly once: the spec's in its order, unknown kinds dropped, missing ones appended disabled. */
export function normalizeProcessors(processors: readonly ProcessorSpec[]): ProcessorSpec[] {
  const seen = new Set<ProcessorKind>();
  const result: ProcessorSpec[] = [];
  for (const entry of processors) {
    if (!(entry.kind in PROCESSOR_INFO) || seen.has(entry.kind)) continue;
    seen.add(entry.kind);
    result.push({ kind: entry.kind, enabled: entry.enabled });
  }
  for (const kind of DEFAULT_PROCESSOR_ORDER) if (!seen.has(kind)) result.push({ kind, enabled: false });
  return result;
}

/** The recommended order, keeping each processor's enabled flag. */
export function recommendedOrder(processors: readonly ProcessorSpec[]): ProcessorSpec[] {
  const enabled = new Map(normalizeProcessors(processors).map((entry) => [entry.kind, entry.enabled]));
  return DEFAULT_PROCESSOR_ORDER.map((kind) => ({ kind, enabled: enabled.get(kind) ?? true }));
}

export function isRecommendedOrder(processors: readonly ProcessorSpec[]): boolean {
  return processors.length === DEFAULT_PROCESSOR_ORDER.length && processors.every((entry, index) => entry.kind === DEFAULT_PROCESSOR_ORDER[index]);
}

/** A copy with the entry at `from` moved to `to`. */
export function moveProcessor(processors: readonly ProcessorSpec[], from: number, to: number): ProcessorSpec[] {
  const next = [...processors];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}
