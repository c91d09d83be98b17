import type { HistoryBudgetResult, TokenBudgetExceeded } from "@/lib/context/light";

export type BudgetSegmentKey = "system" | "tools" | "history" | "over" | "free" | "reserve";

export interface BudgetSegment {
  key: BudgetSegmentKey;
  label: string;
  tokens: number;
  /** Where the segment starts and how wide it is, as fractions of the bar. */
  start: number;
  width: number;
}

/** The budget bar's geometry and verdict, from the run's window split (seed 003) and the token budget. */
export interface BudgetLayout {
  segments: BudgetSegment[];
  /** Tokens the whole bar stands for: the window, or more when the contents overflow it. */
  scale: number;
  /** Where the window ends, as a fraction of the bar (1 unless something overflows). */
  windowEdge: number;
  /** The budget the token_budget processor enforces on system + history: the setting, capped by the window (B4). */
  effectiveBudget: number;
  cappedByWindow: boolean;
  /** Where the budget limit sits on the bar: system + history end there when they exactly fit. */
  budgetLine: number;
  /** System + history tokens: what the budget is compared with. */
  counted: number;
  overBudget: boolean;
  /** History tokens that do not fit the window's history space. */
  overWindow: number;
}

const LABELS: Readonly<Record<BudgetSegmentKey, string>> = {
  system: "System",
  tools: "Tool definitions",
  history: "History",
  over: "Over the window",
  free: "Free",
  reserve: "Output reserve",
};

/** Lays out system | tools | history | (over) | free | reserve; `history = contextWindow − system − tools − reserve`. */
export function layoutBudget(budget: HistoryBudgetResult & { used: number }, tokenBudget: number, exceeded?: TokenBudgetExceeded): BudgetLayout {
  const used = Math.max(0, budget.used);
  const inWindow = Math.min(used, budget.history);
  const overWindow = used - inWindow;
  const sizes: [BudgetSegmentKey, number][] = [
    ["system", budget.system],
    ["tools", budget.tools],
    ["history", inWindow],
    ["over", overWindow],
    ["free", budget.history - inWindow],
    ["reserve", budget.reserve],
  ];
  const total = sizes.reduce((sum, [, tokens]) => sum + tokens, 0);
  const scale = Math.max(budget.contextWindow, total, 1);
  let cursor = 0;
  const segments = sizes.map(([key, tokens]) => {
    const segment = { key, label: LABELS[key], tokens, start: cursor / scale, width: tokens / scale };
    cursor += tokens;
    return segment;
  });
  // The token_budget processor counts system messages inside the history, and only tools and the reserve come off the window.
  const windowLimit = Math.max(0, budget.contextWindow - budget.tools - budget.reserve);
  const effectiveBudget = exceeded?.budget ?? Math.min(tokenBudget, windowLimit);
  const counted = budget.system + used;
  return {
    segments,
    scale,
    windowEdge: budget.contextWindow / scale,
    effectiveBudget,
    cappedByWindow: windowLimit < tokenBudget,
    budgetLine: Math.min(1, (budget.tools + effectiveBudget) / scale),
    counted,
    overBudget: exceeded !== undefined || counted > effectiveBudget,
    overWindow,
  };
}
