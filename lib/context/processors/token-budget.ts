import type { Context } from "../context";
import { BudgetExceededError } from "../errors";
import { splitRounds, type Message, type ToolDefinition } from "../messages";
import { ContextProcessor, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import { computeHistoryBudget } from "../tokens/budget";
import { sharedCounter } from "../tokens/counter";
import { isEncodingName, type EncodingName } from "../tokens/encoding-names";
import { dropIndices } from "./drop";

export interface TokenBudgetOptions {
  maxTokens?: number;
  encoding?: EncodingName;
  /** `"throw"` raises `BudgetExceededError` after writing the over-budget result. */
  onExceeded?: "flag" | "throw";
  name?: string;
}

/** Optional `pre_llm_call` payload fields the budget reads. */
export interface TokenBudgetPayload {
  /** The request's tool definitions: their tokens come out of the window too (seed 003). */
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
 * Enforces a hard token budget on the history (B1–B3): over it, drops the
 * oldest whole rounds until it fits, never a system message, never the
 * incomplete round, never half a tool pair. When even that is over, the
 * history stays valid and `token_budget_exceeded` records the deterministic
 * over-budget result.
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

  /** `extra.token_budget` / `token_encoding` override the constructor; `extra.context_window` caps the budget (B1). */
  resolveBudget(ctx: Context, tools?: readonly ToolDefinition[]): ResolvedTokenBudget {
    const extra = ctx.config.extra;
    const encoding = isEncodingName(extra.token_encoding) ? extra.token_encoding : this.encoding;
    const configured = typeof extra.token_budget === "number" ? extra.token_budget : this.maxTokens;
    if (typeof extra.context_window !== "number" || extra.context_window <= 0) return { budget: configured, encoding, limitedByWindow: false };
    // System messages live in the history here, so only tools and the reserve come off the window.
    const window = computeHistoryBudget({
      contextWindow: extra.context_window,
      maxOutputTokens: typeof extra.max_output_tokens === "number" ? extra.max_output_tokens : 0,
      tools,
      counter: sharedCounter(encoding),
    });
    return window.history < configured ? { budget: window.history, encoding, limitedByWindow: true } : { budget: configured, encoding, limitedByWindow: false };
  }

  process(ctx: Context, payload: TokenBudgetPayload): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const { budget, encoding } = this.resolveBudget(ctx, payload?.tools);
    const counter = sharedCounter(encoding);
    const counts = counter.countEach(history);
    const total = history.length === 0 ? 0 : counts.reduce((sum, count) => sum + count, 3);
    if (total <= budget) {
      ctx.state.set(STATE_KEYS.tokenBudgetTrimmed, { messages: 0, tokensSaved: 0 });
      if (ctx.state.has(STATE_KEYS.tokenBudgetExceeded)) ctx.state.delete(STATE_KEYS.tokenBudgetExceeded);
      return {};
    }
    const { dropped, remaining } = oldestRoundsToDrop(history, counts, total, budget);
    const { history: next, effects } = dropIndices(history, dropped, "dropped");
    if (dropped.length > 0) ctx.state.set(STATE_KEYS.history, next);
    ctx.state.set(STATE_KEYS.tokenBudgetTrimmed, { messages: dropped.length, tokensSaved: total - remaining });
    if (remaining <= budget) {
      if (ctx.state.has(STATE_KEYS.tokenBudgetExceeded)) ctx.state.delete(STATE_KEYS.tokenBudgetExceeded);
      return { effects };
    }
    // B3: the smallest valid history is still over: say so deterministically, leave it valid.
    ctx.state.set(STATE_KEYS.tokenBudgetExceeded, { budget, tokens: remaining });
    if (this.onExceeded === "throw") throw new BudgetExceededError(budget, remaining);
    return { effects };
  }
}

/**
 * The oldest droppable rounds to remove so the rest fits, walking rounds with
 * a running total (no re-count). The last round is never dropped: it holds the
 * turn the model is about to answer.
 */
function oldestRoundsToDrop(history: readonly Message[], counts: readonly number[], total: number, budget: number): { dropped: number[]; remaining: number } {
  const rounds = splitRounds(history);
  const dropped: number[] = [];
  let remaining = total;
  for (const round of rounds.slice(0, -1)) {
    if (remaining <= budget) break;
    for (const index of round.indices) {
      dropped.push(index);
      remaining -= counts[index];
    }
  }
  return { dropped, remaining };
}
