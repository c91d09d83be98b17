import type { Message, ToolDefinition } from "../messages";
import { TOKENS_TO_PRIME_REPLY } from "../tokens/accounting";
import type { TiktokenCounter } from "../tokens/counter";

/** A request's tokens, split as the window is split (E-RB3). */
export interface RequestTokens {
  /** The user's system messages (engine-made summaries and memories count as history). */
  system: number;
  tools: number;
  /** Every other message, the reply priming included. */
  history: number;
  /** The reply priming (E-T1): the part of `history` that is no message, shown as its own term. */
  priming: number;
  /** Everything sent: `system + tools + history`. */
  total: number;
}

/** The one budget verdict of a request (E-RB3): whether it may be sent, and the figures. */
export interface BudgetVerdict {
  /** False: nothing is sent. */
  ok: boolean;
  tokens: RequestTokens;
  contextWindow: number;
  /** Reserved for the reply. */
  reserve: number;
  /** The hard budget on everything sent, null when there is none. */
  budget: number | null;
  /** What `tokens.total` must not exceed: the tighter of the budget and `contextWindow − reserve`. */
  limit: number;
  limitedBy: "window" | "budget";
  /** Why the request may not be sent, in a sentence. */
  reason?: string;
}

/** True for a system message the user wrote (not one the engine made from memory or summaries). */
export function isUserSystemMessage(message: Message): boolean {
  return message.role === "system" && message.engine === undefined;
}

/**
 * A message's tokens at its place in the request: by default the counter's
 * cached count; the request builder reads them from the processed history's
 * index, which has counted the messages the processors wrote (E-I3).
 */
export type MessageTokens = (message: Message, position: number) => number;

/** Splits a request's tokens: system, tools, history (reply priming included), total. */
export function requestTokens(
  messages: readonly Message[],
  tools: readonly ToolDefinition[],
  counter: TiktokenCounter,
  tokensOf: MessageTokens = (message) => counter.countMessage(message),
): RequestTokens {
  const priming = messages.length === 0 ? 0 : TOKENS_TO_PRIME_REPLY;
  let total = priming;
  let system = 0;
  messages.forEach((message, position) => {
    const tokens = tokensOf(message, position);
    total += tokens;
    if (isUserSystemMessage(message)) system += tokens;
  });
  const toolTokens = counter.countTools(tools);
  return { system, tools: toolTokens, history: total - system, priming, total: total + toolTokens };
}

/**
 * E-RB3: a request fits when `system + tools + history + reserve ≤ contextWindow`
 * and, with a hard budget, `system + tools + history ≤ budget`.
 */
export function budgetVerdict(tokens: RequestTokens, limits: { contextWindow: number; reserve: number; budget: number | null }): BudgetVerdict {
  const windowLimit = Math.max(0, limits.contextWindow - limits.reserve);
  const limitedBy = limits.budget !== null && limits.budget < windowLimit ? "budget" : "window";
  const limit = limitedBy === "budget" ? (limits.budget as number) : windowLimit;
  const verdict: BudgetVerdict = {
    ok: tokens.total <= limit,
    tokens,
    contextWindow: limits.contextWindow,
    reserve: limits.reserve,
    budget: limits.budget,
    limit,
    limitedBy,
  };
  if (!verdict.ok) {
    const over = tokens.total - limit;
    verdict.reason =
      limitedBy === "budget"
        ? `the request needs ${tokens.total} tokens, ${over} over the token budget of ${limit}, even after the pipeline kept only what it must (the system prompt, the last round, whole tool pairs)`
        : `the request needs ${tokens.total} tokens but the ${limits.contextWindow}-token window leaves ${limit} after reserving ${limits.reserve} for the reply, even after the pipeline kept only what it must`;
  }
  return verdict;
}
