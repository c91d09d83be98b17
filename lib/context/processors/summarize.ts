import type { Context } from "../context";
import { applyEdits } from "../history/edit";
import { indexOf } from "../history/index-of";
import { toRanges } from "../history/ranges";
import { CONVERSATION_SUMMARY_PREFIX, isConversationSummary, splitRounds, type Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import type { Summarizer } from "../summarizer";
import { identity, OutcomeCache } from "./outcome-cache";

export interface SummarizeProcessorOptions {
  /** Without one, the processor only marks what needs a summary. */
  summarizer?: Summarizer;
  /** Overrides `ctx.config.summaryThreshold`; `null` disables. */
  threshold?: number | null;
  name?: string;
}

/** What one run over one history decides and writes (E-PL6). */
interface Outcome {
  candidates: readonly Message[];
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/**
 * Over `summaryThreshold` non-system messages, marks the oldest excess, cut at
 * a round boundary, as `summary_candidates` and sets `needs_summary` (E-SU1).
 * With a summarizer it replaces them by one `[Conversation Summary]` system
 * message that extends any earlier summary (E-SU2). A disabled threshold never fires.
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
    const key = `${threshold}:${this.summarizer ? identity(this.summarizer) : "-"}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, await this.summarize(history, threshold));
    if (outcome.candidates.length === 0) {
      ctx.state.set(STATE_KEYS.needsSummary, false);
      if (ctx.state.has(STATE_KEYS.summaryCandidates)) ctx.state.delete(STATE_KEYS.summaryCandidates);
      return {};
    }
    ctx.state.set(STATE_KEYS.summaryCandidates, outcome.candidates);
    ctx.state.set(STATE_KEYS.needsSummary, outcome.history === history);
    if (outcome.history !== history) ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private async summarize(history: readonly Message[], threshold: number): Promise<Outcome> {
    const picked = selectCandidates(history, threshold);
    const candidates = picked.map((position) => history[position]);
    if (picked.length === 0 || !this.summarizer) return { candidates, history, effects: [] };
    const previousAt = history.findIndex(isConversationSummary);
    const summary = await summaryOf(this.summarizer, candidates, previousAt >= 0 ? history[previousAt] : undefined);
    return { candidates, ...replaceBySummary(history, picked, previousAt, summary) };
  }
}

/**
 * The history with the picked positions (and the earlier summary at
 * `previousAt`, -1 for none) replaced by one summary message, which stands
 * where the earlier one stood, or where its first candidate did (E-SU2, E-CS3).
 */
export function replaceBySummary(
  history: readonly Message[],
  picked: readonly number[],
  previousAt: number,
  summary: Message,
): { history: readonly Message[]; effects: MessageEffect[] } {
  const removed = toRanges(previousAt >= 0 ? [previousAt, ...picked] : picked);
  const insertAt = previousAt >= 0 ? previousAt : picked[0];
  const edits = removed
    .flatMap(([from, to]) =>
      from < insertAt && insertAt < to
        ? [
            [from, insertAt],
            [insertAt, to],
          ]
        : [[from, to]],
    )
    .map(([from, to]) => ({ from, to, messages: from === insertAt ? [summary] : [] }));
  const { history: next, placed } = applyEdits(history, edits);
  const at = placed[edits.findIndex((edit) => edit.from === insertAt)];
  return { history: next, effects: [{ kind: "summarised", before: removed, after: [[at, at + 1]] }] };
}

/** SU1: the oldest complete rounds covering at least the excess over the threshold; never the last round. */
function selectCandidates(history: readonly Message[], threshold: number): number[] {
  const index = indexOf(history);
  const excess = index.length - index.systemCount - threshold;
  if (excess <= 0) return [];
  const picked: number[] = [];
  // E-SU1: the last round is never a candidate, complete or not: it is the exchange the model answers from.
  for (const round of splitRounds(history).slice(0, -1)) {
    if (!round.complete || picked.length >= excess) break;
    picked.push(...round.indices);
  }
  return picked;
}

/**
 * The summary message of these candidates (and the earlier summary they
 * extend). The same candidates give the same message object on every run: the
 * summarizer may be a paid model call, and a stable object keeps its count.
 */
export async function summaryOf(summarizer: Summarizer, candidates: readonly Message[], previous: Message | undefined): Promise<Message> {
  let cache = summaries.get(summarizer);
  if (!cache) {
    cache = new WeakMap();
    summaries.set(summarizer, cache);
  }
  const known = cache.get(candidates[0]);
  if (
    known &&
    known.previous === previous &&
    known.candidates.length === candidates.length &&
    known.candidates.every((message, order) => message === candidates[order])
  )
    return known.summary;
  const previousSummary = previous ? (previous.content ?? "").slice(CONVERSATION_SUMMARY_PREFIX.length).trim() : undefined;
  const text = (await summarizer(candidates, { purpose: "conversation", previousSummary })).trim();
  const summary: Message = { role: "system", content: `${CONVERSATION_SUMMARY_PREFIX}\n${text}`, engine: { kind: "conversation-summary" } };
  cache.set(candidates[0], { candidates, previous, summary });
  return summary;
}

const summaries = new WeakMap<Summarizer, WeakMap<Message, { candidates: readonly Message[]; previous: Message | undefined; summary: Message }>>();
