import type { BudgetVerdict } from "@/lib/context/light";

export type BudgetSegmentKey = "system" | "tools" | "history" | "over" | "free" | "beyond" | "reserve";

export interface BudgetSegment {
  key: BudgetSegmentKey;
  label: string;
  tokens: number;
  /** Where the segment starts and how wide it is, as fractions of the bar. */
  start: number;
  width: number;
}

/** The budget bar's geometry, from the request's one verdict. */
export interface BudgetLayout {
  segments: BudgetSegment[];
  /** Tokens the whole bar stands for: the window, or more when the request overflows it. */
  scale: number;
  /** Where the window ends, as a fraction of the bar (1 unless something overflows). */
  windowEdge: number;
  /** Where the limit sits on the bar (everything sent must end before it), or null without a hard budget tighter than the window. */
  budgetLine: number | null;
  /** History tokens past the limit. */
  over: number;
}

const LABELS: Readonly<Record<BudgetSegmentKey, string>> = {
  system: "System",
  tools: "Tool definitions",
  history: "History",
  over: "Over the limit",
  free: "Free",
  beyond: "Past the token budget",
  reserve: "Output reserve",
};

/**
 * Lays out system | tools | history | (over) | free | (beyond) | reserve over
 * the window: everything sent plus the reserve must fit the window, and
 * everything sent must fit the hard budget when there is one (the same
 * arithmetic as the verdict). Free space is what is left under the limit that
 * applies, so a request over it has none; with a budget tighter than the
 * window, the window's room past the budget is its own segment, not free.
 */
export function layoutBudget(verdict: BudgetVerdict): BudgetLayout {
  const { tokens, contextWindow, reserve, limit } = verdict;
  const fixed = tokens.system + tokens.tools;
  const room = Math.max(0, limit - fixed);
  const inLimit = Math.min(tokens.history, room);
  const over = tokens.history - inLimit;
  const sent = fixed + tokens.history;
  const free = Math.max(0, limit - sent);
  const beyond = Math.max(0, contextWindow - reserve - Math.max(limit, sent));
  const sizes: [BudgetSegmentKey, number][] = [
    ["system", tokens.system],
    ["tools", tokens.tools],
    ["history", inLimit],
    ["over", over],
    ["free", free],
    ["beyond", beyond],
    ["reserve", reserve],
  ];
  const total = sizes.reduce((sum, [, size]) => sum + size, 0);
  const scale = Math.max(contextWindow, total, 1);
  let cursor = 0;
  const segments = sizes.map(([key, size]) => {
    const segment = { key, label: LABELS[key], tokens: size, start: cursor / scale, width: size / scale };
    cursor += size;
    return segment;
  });
  return { segments, scale, windowEdge: contextWindow / scale, budgetLine: verdict.limitedBy === "budget" ? Math.min(1, limit / scale) : null, over };
}
