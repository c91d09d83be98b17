import type { TokenBudgetExceeded, TokenBudgetTrimmed } from "@/lib/context/light";
import type { RunResult } from "@/lib/playground/protocol";
import { layoutBudget } from "./budget-layout";
import { formatNumber, plural } from "./format";
import styles from "./budget-bar.module.css";

export interface BudgetBarProps {
  /** `RunResult.budget`: the window split (seed 003) and the history tokens the run uses. */
  budget: RunResult["budget"];
  /** `PlaygroundSettings.tokenBudget`: drawn as the limit line (capped by the window, as the processor caps it). */
  tokenBudget: number;
  /** `RunResult.exceeded`: even the smallest valid history is over budget. */
  exceeded?: TokenBudgetExceeded;
  /** `RunResult.trimmed`: what token_budget dropped to fit. */
  trimmed?: TokenBudgetTrimmed;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;
const share = (tokens: number, whole: number) => (whole > 0 ? `${((tokens / whole) * 100).toFixed(1)}%` : "0%");

/** The context window split into system, tool definitions, history, free space and output reserve, with the token budget and the over-budget verdict. */
export function BudgetBar({ budget, tokenBudget, exceeded, trimmed }: BudgetBarProps) {
  const layout = layoutBudget(budget, tokenBudget, exceeded);
  const visible = layout.segments.filter((segment) => segment.tokens > 0 || segment.key === "history" || segment.key === "free");
  const summary =
    `Context window ${formatNumber(budget.contextWindow)} tokens: ` +
    visible.map((segment) => `${segment.label.toLowerCase()} ${formatNumber(segment.tokens)}`).join(", ") +
    `. Token budget ${formatNumber(layout.effectiveBudget)} for system and history, ${formatNumber(layout.counted)} used` +
    (layout.overBudget ? ": over budget." : ".");

  return (
    <section className={styles.budget} aria-label="Token budget" data-over={layout.overBudget || undefined}>
      <div className={styles.heading}>
        <span className={styles.title}>Context window</span>
        <span className={styles.totals}>
          {formatNumber(layout.counted)} / {formatNumber(layout.effectiveBudget)} budget · {formatNumber(budget.contextWindow)} window
        </span>
      </div>
      <div className={styles.track} role="img" aria-label={summary}>
        {layout.segments.map((segment) =>
          segment.tokens > 0 ? (
            <span
              key={segment.key}
              className={styles.segment}
              data-segment={segment.key}
              style={{ left: percent(segment.start), width: percent(segment.width) }}
              title={`${segment.label}: ${formatNumber(segment.tokens)} tokens`}
            />
          ) : null,
        )}
        {layout.windowEdge < 1 ? <span className={styles.windowEdge} style={{ left: percent(layout.windowEdge) }} title="End of the context window" /> : null}
        <span className={styles.budgetLine} data-budget-line="" style={{ left: percent(layout.budgetLine) }} title={`Token budget: ${formatNumber(layout.effectiveBudget)}`} />
      </div>
      <ul className={styles.legend} aria-label="Context window split">
        {visible.map((segment) => (
          <li key={segment.key} data-segment={segment.key}>
            <span className={styles.swatch} data-segment={segment.key} aria-hidden="true" />
            <span className={styles.legendLabel}>{segment.label}</span>
            <span className={styles.legendValue}>{formatNumber(segment.tokens)}</span>
            <span className={styles.legendShare}>{share(segment.tokens, budget.contextWindow)}</span>
          </li>
        ))}
        <li data-segment="budget">
          <span className={styles.swatch} data-segment="budget" aria-hidden="true" />
          <span className={styles.legendLabel}>Token budget{layout.cappedByWindow ? " (capped by the window)" : ""}</span>
          <span className={styles.legendValue}>{formatNumber(layout.effectiveBudget)}</span>
          <span className={styles.legendShare} />
        </li>
      </ul>
      <BudgetVerdict layout={layout} budget={budget} exceeded={exceeded} trimmed={trimmed} />
    </section>
  );
}

function BudgetVerdict({ layout, budget, exceeded, trimmed }: { layout: ReturnType<typeof layoutBudget>; budget: RunResult["budget"]; exceeded?: TokenBudgetExceeded; trimmed?: TokenBudgetTrimmed }) {
  const lines: string[] = [];
  if (budget.overflow > 0) lines.push(`System, tool definitions and output reserve alone overflow the window by ${formatNumber(budget.overflow)} tokens: no history fits.`);
  if (exceeded) lines.push(`The smallest valid history needs ${formatNumber(exceeded.tokens)} tokens, budget ${formatNumber(exceeded.budget)}: no model call would be made.`);
  else if (layout.overBudget) lines.push(`System and history use ${formatNumber(layout.counted)} tokens, over the ${formatNumber(layout.effectiveBudget)}-token budget: token_budget is disabled or ran before a processor that added tokens.`);
  if (layout.overWindow > 0) lines.push(`${formatNumber(layout.overWindow)} history tokens do not fit the window after system, tools and reserve.`);
  const trimmedText = trimmed && trimmed.messages > 0 ? `token_budget dropped ${plural(trimmed.messages, "message")} (−${formatNumber(trimmed.tokensSaved)} tokens) to fit.` : null;

  return (
    <div className={styles.verdict} role="status" aria-live="polite">
      {lines.length > 0 ? (
        <div className={styles.over}>
          <strong>Over budget.</strong> {lines.join(" ")}
        </div>
      ) : (
        <p className={styles.within}>
          Within budget: {formatNumber(Math.max(0, layout.effectiveBudget - layout.counted))} tokens to spare.
        </p>
      )}
      {trimmedText ? <p className={styles.trimmed}>{trimmedText}</p> : null}
    </div>
  );
}
