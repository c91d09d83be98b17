import { isChainSummary, isConversationSummary, type Message, type MessageEffectKind } from "@/lib/context/light";
import type { RunResult } from "@/lib/playground/protocol";

/** One thing the pipeline did to (or made of) a message, as a chip. */
export interface RowMark {
  kind: MessageEffectKind | "added";
  processor: string;
  handle?: string;
}

/** What the view draws about the pipeline's effect on one row. */
export interface RowEffect {
  marks: RowMark[];
  /** Before view: the message is not in the processed history. */
  gone: boolean;
  /** After view: index of the loaded message this one stands for, -1 for one the pipeline wrote. */
  origin?: number;
}

/** Per loaded message: the marks of the run and whether it survived. */
export function effectsBefore(result: RunResult | null, count: number): RowEffect[] {
  if (!result) return Array.from({ length: count }, () => ({ marks: [], gone: false }));
  return result.kept.map((at, index) => ({ marks: result.marks[index] ?? [], gone: at < 0 }));
}

function authorOf(message: Message): RowMark {
  if (isChainSummary(message)) return { kind: "compressed", processor: "dialogue_compressor" };
  if (isConversationSummary(message)) return { kind: "summarised", processor: "summarize" };
  return { kind: "added", processor: "pipeline" };
}

/** Per message of the processed history: the loaded message it stands for and its marks, or who wrote it. */
export function effectsAfter(result: RunResult): RowEffect[] {
  const origins = result.history.map(() => -1);
  result.kept.forEach((at, origin) => {
    if (at >= 0) origins[at] = origin;
  });
  return result.history.map((message, index) => {
    const origin = origins[index];
    return origin >= 0 ? { marks: result.marks[origin] ?? [], gone: false, origin } : { marks: [authorOf(message)], gone: false, origin: -1 };
  });
}

export const MARK_LABELS: Record<RowMark["kind"], string> = {
  offloaded: "offloaded",
  compressed: "compressed",
  dropped: "dropped",
  summarised: "summarised",
  truncated: "truncated",
  masked: "masked",
  cleared: "cleared",
  added: "added",
};
