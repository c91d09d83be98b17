import type { Context } from "../context";
import { CONVERSATION_SUMMARY_PREFIX, splitRounds, type Message } from "../messages";
import { ContextProcessor, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import type { Summarizer } from "../summarizer";

export interface SummarizeProcessorOptions {
  /** Without one, the processor only marks what needs a summary. */
  summarizer?: Summarizer;
  /** Overrides `ctx.config.summaryThreshold`; `null` disables. */
  threshold?: number | null;
  name?: string;
}

/** True for the system message a previous summary left. */
export function isConversationSummary(message: Message): boolean {
  return message.role === "system" && (message.content ?? "").startsWith(CONVERSATION_SUMMARY_PREFIX);
}

/**
 * Over `summaryThreshold` non-system messages, marks the oldest excess, cut at
 * a round boundary, as `summary_candidates` and sets `needs_summary` (SU1).
 * With a summarizer it replaces them by one `[Conversation Summary]` system
 * message that extends any earlier summary (SU2). A disabled threshold never fires.
 * @example pipeline.register(new SummarizeProcessor({ summarizer: extractiveSummarizer }))
 */
export class SummarizeProcessor extends ContextProcessor {
  private readonly summarizer?: Summarizer;
  private readonly threshold?: number | null;

  constructor(options: SummarizeProcessorOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "summarize" });
    this.summarizer = options.summarizer;
    this.threshold = options.threshold;
  }

  async process(ctx: Context): Promise<ProcessorResult> {
    const threshold = this.threshold === undefined ? ctx.config.summaryThreshold : this.threshold;
    if (threshold === null || threshold === undefined || !Number.isFinite(threshold)) return {};
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const candidates = this.selectCandidates(history, threshold);
    if (candidates.length === 0) {
      ctx.state.set(STATE_KEYS.needsSummary, false);
      if (ctx.state.has(STATE_KEYS.summaryCandidates)) ctx.state.delete(STATE_KEYS.summaryCandidates);
      return {};
    }
    const candidateMessages = candidates.map((index) => history[index]);
    ctx.state.set(STATE_KEYS.summaryCandidates, candidateMessages);
    if (!this.summarizer) {
      ctx.state.set(STATE_KEYS.needsSummary, true);
      return {};
    }
    const previousIndex = history.findIndex(isConversationSummary);
    const previous = previousIndex >= 0 ? (history[previousIndex].content ?? "").slice(CONVERSATION_SUMMARY_PREFIX.length).trim() : undefined;
    const text = (await this.summarizer(candidateMessages, { purpose: "conversation", previousSummary: previous })).trim();
    const summary: Message = { role: "system", content: `${CONVERSATION_SUMMARY_PREFIX}\n${text}` };
    const removed = new Set(previousIndex >= 0 ? [previousIndex, ...candidates] : candidates);
    const insertAt = previousIndex >= 0 ? previousIndex : candidates[0];
    const next: Message[] = [];
    let summaryIndex = -1;
    history.forEach((message, index) => {
      if (index === insertAt) {
        summaryIndex = next.length;
        next.push(summary);
      }
      if (!removed.has(index)) next.push(message);
    });
    ctx.state.set(STATE_KEYS.history, next);
    ctx.state.set(STATE_KEYS.needsSummary, false);
    return { effects: [{ kind: "summarised", before: [...removed].sort((a, b) => a - b), after: [summaryIndex] }] };
  }

  /** The oldest complete rounds covering at least the excess over the threshold. */
  private selectCandidates(history: readonly Message[], threshold: number): number[] {
    const counted = history.filter((message) => message.role !== "system").length;
    const excess = counted - threshold;
    if (excess <= 0) return [];
    const picked: number[] = [];
    // SU1: the last round is never a candidate, complete or not: it is the exchange the model answers from.
    for (const round of splitRounds(history).slice(0, -1)) {
      if (!round.complete || picked.length >= excess) break;
      picked.push(...round.indices);
    }
    return picked;
  }
}
