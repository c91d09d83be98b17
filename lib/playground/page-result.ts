import type { BranchRecord, ConversationRecord, MessageRecord } from "@/lib/db";
import type { MessageMark, RunResult } from "./protocol";

/**
 * Messages a branch opens with: its first screen, shown at once. The
 * pipeline reads the rest itself (its worker pages through the branch), so
 * opening a long branch, by its page or by a branch switch, never holds the
 * whole history on the main thread first.
 */
export const FIRST_SCREEN_MESSAGES = 40;

/** What the workspace opens a branch with, as its page carries it, or `GET /api/branches/[branchId]/opening` for a branch switch. */
export interface BranchOpening {
  branch: BranchRecord;
  /** The branch's conversation as stored: its settings are the ones the result was built with. */
  conversation: ConversationRecord;
  /** The branch's first screen. */
  records: MessageRecord[];
  /** The first pipeline result, built on the server; null when the worker builds it. */
  result: PageResult | null;
}

/**
 * A first result as the workspace page carries it (FR3 in README.md): the
 * per-message arrays of a long branch are mostly "dropped, no mark" after the
 * round window, so they travel as what is not that. `kept` becomes the runs of
 * consecutive kept messages, `marks` the marks of the messages the page shows
 * and of those the request keeps.
 */
export interface PageResult extends Omit<RunResult, "kept" | "marks"> {
  /** How many messages the loaded conversation has. */
  messages: number;
  /** `[first loaded index, count, its index in history]` per run of kept messages; the rest are -1. */
  keptRuns: [number, number, number][];
  /** `[loaded index, marks]` for the first screen and the kept messages; the rest have none. */
  marksAt: [number, MessageMark[]][];
}

export function toPageResult(result: RunResult, shown: number): PageResult {
  const { kept, marks, ...rest } = result;
  const keptRuns: [number, number, number][] = [];
  const marksAt: [number, MessageMark[]][] = [];
  for (let index = 0; index < kept.length; index += 1) {
    const at = kept[index];
    if ((index < shown || at >= 0) && marks[index].length > 0) marksAt.push([index, marks[index]]);
    if (at < 0) continue;
    const last = keptRuns[keptRuns.length - 1];
    if (last && last[0] + last[1] === index && last[2] + last[1] === at) last[1] += 1;
    else keptRuns.push([index, 1, at]);
  }
  return { ...rest, messages: kept.length, keptRuns, marksAt };
}

export function fromPageResult(page: PageResult): RunResult {
  const { messages, keptRuns, marksAt, ...rest } = page;
  const kept = new Array<number>(messages).fill(-1);
  for (const [from, count, at] of keptRuns) for (let offset = 0; offset < count; offset += 1) kept[from + offset] = at + offset;
  const marks: MessageMark[][] = Array.from({ length: messages }, () => []);
  for (const [index, list] of marksAt) marks[index] = list;
  return { ...rest, kept, marks };
}
