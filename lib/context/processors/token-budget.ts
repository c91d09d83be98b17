import type { Context } from "../context";
import { BudgetExceededError } from "../errors";
import { complementRanges, keepRanges } from "../history/edit";
import type { HistoryIndex, HistoryPiece } from "../history/history-index";
import { deriveHistory, indexOf } from "../history/index-of";
import { rangeIndices, rangesSize, toRanges } from "../history/ranges";
import type { Message, ToolDefinition } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STATE_KEYS, type TokenBudgetExceeded, type TokenBudgetTrimmed } from "../state";
import { computeHistoryBudget } from "../tokens/budget";
import type { TiktokenCounter } from "../tokens/counter";
import type { EncodingName } from "../tokens/encoding-names";
import { resolveCounter } from "../tokens/resolve";
import { OutcomeCache } from "./outcome-cache";
import { giveWaySummaries, type KeptMessage } from "./summary-giveway";

export interface TokenBudgetOptions {
  maxTokens?: number;
  encoding?: EncodingName;
  /** `"throw"` raises `BudgetExceededError` after writing the over-budget result. */
  onExceeded?: "flag" | "throw";
  name?: string;
}

/** Optional `pre_llm_call` payload fields the budget reads. */
export interface TokenBudgetPayload {
  /** The request's tool definitions: their tokens come out of the window too (E-B1). */
  tools?: readonly ToolDefinition[];
}

/** The budget a history must fit, and where it came from. */
export interface ResolvedTokenBudget {
  budget: number;
  encoding: EncodingName;
  /** Whether the context window (minus tools and output reserve) was the tighter limit. */
  limitedByWindow: boolean;
}

/**
 * Enforces a hard token budget on the history (E-B1–E-B5): over it, drops the
 * oldest whole rounds until it fits, never a system message of the user's,
 * never the last round, never half a tool pair; then shortens or drops the
 * engine's own summaries. Only when even the smallest valid history is over
 * does `token_budget_exceeded` record the deterministic over-budget result.
 * @example pipeline.register(new TokenBudgetProcessor({ maxTokens: 8_000, encoding: "o200k_base" }))
 */
export class TokenBudgetProcessor extends ContextProcessor<TokenBudgetPayload> {
  readonly maxTokens: number;
  readonly encoding: EncodingName;
  private readonly onExceeded: "flag" | "throw";

  constructor(options: TokenBudgetOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "token_budget" });
    this.maxTokens = options.maxTokens ?? 100_000;
    this.encoding = options.encoding ?? "cl100k_base";
    this.onExceeded = options.onExceeded ?? "flag";
  }

  /**
   * The budget the history (system messages included) must fit: `extra.token_budget`
   * (or the constructor's) less the payload's tools, since the budget covers
   * everything sent; `extra.context_window` caps it (E-B1, E-B4).
   */
  resolveBudget(ctx: Context, tools?: readonly ToolDefinition[]): ResolvedTokenBudget {
    const extra = ctx.config.extra;
    const counter = resolveCounter(ctx.config, this.encoding);
    const { encoding } = counter;
    const toolTokens = counter.countTools(tools);
    const configured = (typeof extra.token_budget === "number" ? extra.token_budget : this.maxTokens) - toolTokens;
    if (typeof extra.context_window !== "number" || extra.context_window <= 0) return { budget: configured, encoding, limitedByWindow: false };
    // System messages live in the history here, so only tools and the reserve come off the window.
    const window = computeHistoryBudget({
      contextWindow: extra.context_window,
      maxOutputTokens: typeof extra.max_output_tokens === "number" ? extra.max_output_tokens : 0,
      tools,
      counter,
    });
    return window.history < configured ? { budget: window.history, encoding, limitedByWindow: true } : { budget: configured, encoding, limitedByWindow: false };
  }

  process(ctx: Context, payload: TokenBudgetPayload): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const { budget } = this.resolveBudget(ctx, payload?.tools);
    const counter = resolveCounter(ctx.config, this.encoding);
    const key = `${budget}:${counter.encoding}:${counter.mediaRule}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, fitToBudget(history, budget, counter));
    if (outcome.history !== history) ctx.state.set(STATE_KEYS.history, outcome.history);
    ctx.state.set(STATE_KEYS.tokenBudgetTrimmed, outcome.trimmed);
    if (!outcome.exceeded) {
      if (ctx.state.has(STATE_KEYS.tokenBudgetExceeded)) ctx.state.delete(STATE_KEYS.tokenBudgetExceeded);
      return { effects: outcome.effects };
    }
    // E-B3: the smallest valid history (E-B5) is still over: say so deterministically, leave it valid.
    ctx.state.set(STATE_KEYS.tokenBudgetExceeded, outcome.exceeded);
    if (this.onExceeded === "throw") throw new BudgetExceededError(budget, outcome.exceeded.tokens);
    return { effects: outcome.effects };
  }
}

/** What the budget makes of one history at one budget (E-PL6). */
interface Outcome {
  history: readonly Message[];
  trimmed: TokenBudgetTrimmed;
  exceeded?: TokenBudgetExceeded;
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/**
 * What fits (E-B2, E-B5), from the history's running totals (no re-count): the
 * fewest oldest whole rounds go, never the last round, which holds the turn
 * the model is about to answer; then the engine's summaries give way.
 */
function fitToBudget(history: readonly Message[], budget: number, counter: TiktokenCounter): Outcome {
  const index = indexOf(history);
  const total = index.tokens(counter);
  if (total <= budget) return { history, trimmed: { messages: 0, tokensSaved: 0 }, effects: [] };
  const { cut, remaining } = oldestRoundsToDrop(index, counter, total, budget);
  const systems = index.systemPositionsBefore(cut);
  const keptRanges = [...toRanges(systems), ...(cut < history.length ? [[cut, history.length] as const] : [])];
  const dropped = cut > 0 ? complementRanges(toRanges(systems), cut) : [];
  const effects: MessageEffect[] = dropped.length > 0 ? [{ kind: "dropped", before: dropped, after: [] }] : [];
  let next = keepRanges(history, keptRanges);
  let tokens = remaining;
  let droppedMessages = rangesSize(dropped);
  if (remaining > budget) {
    const kept = [...rangeIndices(keptRanges)].map(
      (position): KeptMessage => ({ message: history[position], index: position, tokens: index.tokensAt(counter, position) }),
    );
    const summaries = giveWaySummaries(kept, remaining, budget, counter);
    if (summaries.dropped.length + summaries.shortened.length > 0) next = keptHistory(history, summaries.kept);
    tokens = summaries.total;
    droppedMessages += summaries.dropped.length;
    if (summaries.dropped.length > 0) effects.push({ kind: "dropped", before: toRanges(summaries.dropped), after: [], note: "engine summaries" });
    for (const position of summaries.shortened) {
      const at = summaries.kept.findIndex((entry) => entry.index === position);
      effects.push({
        kind: "truncated",
        before: [[position, position + 1]],
        after: [[at, at + 1]],
        note: `summary shortened to ${summaries.kept[at].tokens} tokens`,
      });
    }
  }
  const trimmed = { messages: droppedMessages, tokensSaved: total - tokens };
  return { history: next, trimmed, effects, ...(tokens > budget ? { exceeded: { budget, tokens } } : {}) };
}

/** The fewest oldest rounds (never the last) whose dropping fits the budget, or all but the last: found by bisection on running totals. */
function oldestRoundsToDrop(index: HistoryIndex, counter: TiktokenCounter, total: number, budget: number): { cut: number; remaining: number } {
  const systemTokens: number[] = [0];
  for (let ordinal = 0; ordinal < index.systemCount; ordinal += 1) systemTokens.push(systemTokens[ordinal] + index.tokensAt(counter, index.systemAt(ordinal)));
  // System messages stand among dropped rounds but stay (E-B2): only the rest of the span is saved.
  const remainingAfter = (rounds: number) => {
    if (rounds === 0) return total;
    const start = index.roundStart(rounds);
    return total - (index.tokensBefore(counter, start) - systemTokens[index.systemsBefore(start)]);
  };
  let low = 0;
  let high = Math.max(0, index.rounds - 1);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (remainingAfter(middle) <= budget) high = middle;
    else low = middle + 1;
  }
  return { cut: low === 0 ? 0 : index.roundStart(low), remaining: remainingAfter(low) };
}

/** The kept messages as a history, registered with the pieces it shares (E-I3). */
function keptHistory(history: readonly Message[], kept: readonly KeptMessage[]): readonly Message[] {
  const pieces: HistoryPiece[] = kept.map((entry) =>
    entry.message === history[entry.index] ? { from: entry.index, to: entry.index + 1 } : { message: entry.message },
  );
  return deriveHistory(
    kept.map((entry) => entry.message),
    history,
    pieces,
  );
}
