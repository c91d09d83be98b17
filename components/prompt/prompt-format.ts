import type { RequestSectionKind } from "@/lib/context/light";
import type { RequestView, SectionView } from "@/lib/request";

export const SECTION_KIND_LABELS: Record<RequestSectionKind, string> = {
  system: "System",
  tools: "Tools",
  summary: "Summary",
  retrieved: "Retrieved",
  recent: "Recent turns",
  current: "Current turn",
};

/** Each section's share of the request's total tokens (the reply priming, a term of its own, included), 0–1; all zero for an empty request. */
export function sectionShares(sections: readonly SectionView[], priming = 0): number[] {
  const total = sections.reduce((sum, section) => sum + section.tokens, priming);
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

/** The status line's words: whether the request is sent, and its figures against the limit. */
export function describeStatus(view: Pick<RequestView, "verdict" | "tokenizer">): { title: string; detail: string } {
  const { verdict } = view;
  const approx = view.tokenizer.exact ? "" : "≈ ";
  const limit =
    verdict.limitedBy === "budget"
      ? "the token budget"
      : `the ${formatTokens(verdict.contextWindow)}-token window less ${formatTokens(verdict.reserve)} reserved for the reply`;
  if (!verdict.ok) return { title: "Over budget: nothing is sent", detail: `${verdict.reason ?? "the request does not fit"}.` };
  return { title: "Fits", detail: `${approx}${formatTokens(verdict.tokens.total)} of ${formatTokens(verdict.limit)} tokens (the limit is ${limit}).` };
}
