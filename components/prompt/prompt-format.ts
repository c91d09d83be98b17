import type { AssembledPrompt, PromptSection, PromptSectionKind } from "@/lib/client";

export const SECTION_KIND_LABELS: Record<PromptSectionKind, string> = {
  system: "System",
  tools: "Tools",
  checkpoint: "Checkpoint",
  retrieved: "Retrieved",
  recent: "Recent turns",
  current: "Current turn",
};

/** Each section's share of the prompt's total tokens, 0–1; all zero for an empty prompt. */
export function sectionShares(sections: readonly PromptSection[]): number[] {
  const total = sections.reduce((sum, section) => sum + section.tokens, 0);
  return sections.map((section) => (total === 0 ? 0 : section.tokens / total));
}

/** "12.5%"; "<0.1%" for a sliver that still counts. */
export function formatShare(share: number): string {
  if (share > 0 && share < 0.001) return "<0.1%";
  return `${(share * 100).toFixed(1)}%`;
}

export function formatTokens(tokens: number): string {
  return tokens.toLocaleString("en");
}

type ShrinkStep = NonNullable<AssembledPrompt["shrunk"]>[number];

const SHRINK_STEPS: Readonly<Record<ShrinkStep, string>> = {
  "drop-retrieved": "retrieved memories",
  "keep-2-rounds": "raw rounds older than the 2 most recent",
  "keep-1-round": "raw rounds older than the most recent",
};

/** What stage 3 left out, in words, in the order it was left out. */
export function describeShrunk(steps: readonly ShrinkStep[] | undefined): string | null {
  if (!steps || steps.length === 0) return null;
  return steps.map((step) => SHRINK_STEPS[step] ?? step).join(", then ");
}

/** The status line's words: what the status means for the next model call. */
export function describeStatus(prompt: AssembledPrompt): { title: string; detail: string } {
  const { budget, tokens } = prompt;
  const fits = `${formatTokens(budget.projected)} of ${formatTokens(budget.limit)} history tokens (limit: the tighter of the token budget and the window's history share); ${formatTokens(tokens.total)} in all`;
  if (prompt.status === "budget_exceeded") {
    const reason = prompt.exceeded?.reason ?? `${formatTokens(budget.projected)} tokens exceed the ${formatTokens(budget.limit)}-token limit`;
    return { title: "Budget exceeded: deterministic stop", detail: `No model call is made. ${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` };
  }
  if (prompt.status === "compacted") {
    const compaction = prompt.compaction;
    const what = compaction
      ? `summarised messages ${compaction.summary.fromPosition}–${compaction.summary.toPosition - 1} into checkpoint v${compaction.checkpoint.version}`
      : "compacted the branch";
    return { title: "Compacted", detail: `Assembling first ${what}; the request now fits: ${fits}.` };
  }
  return { title: "OK", detail: `Fits: ${fits}.` };
}
