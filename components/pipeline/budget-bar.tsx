import type { BudgetVerdict, TokenBudgetTrimmed } from "@/lib/context/light";
import { layoutBudget } from "./budget-layout";
import { formatNumber, plural } from "./format";
import styles from "./budget-bar.module.css";

export interface BudgetBarProps {
  /** The request's one budget verdict: every view of the next request shows this same one. */
  verdict: BudgetVerdict;
  /** What the token budget processor dropped to fit. */
  trimmed?: TokenBudgetTrimmed;
  /** Why counts are approximate, when they are (the model's tokenizer is not public, say). */
  approximation?: string;
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;
const share = (tokens: number, whole: number) => (whole > 0 ? `${((tokens / whole) * 100).toFixed(1)}%` : "0%");

/** The context window split into system, tool definitions, history, free space and output reserve, with the limit and the one verdict. */
export function BudgetBar({ verdict, trimmed, approximation }: BudgetBarProps) {
  const layout = layoutBudget(verdict);
  const approx = approximation ? "≈ " : "";
  const visible = layout.segments.filter((segment) => segment.tokens > 0 || segment.key === "history" || segment.key === "free");
  const summary =
    `Context window ${formatNumber(verdict.contextWindow)} tokens: ` +
    visible.map((segment) => `${segment.label.toLowerCase()} ${formatNumber(segment.tokens)}`).join(", ") +
    `. ${approx}${formatNumber(verdict.tokens.total)} tokens sent of a ${formatNumber(verdict.limit)}-token limit` +
    (verdict.ok ? "." : ": over the limit, nothing is sent.");

  return (
    <section className={styles.budget} aria-label="Token budget" data-over={!verdict.ok || undefined}>
      <div className={styles.heading}>
        <span className={styles.title}>Context window</span>
        <span className={styles.totals}>
          {approx}
          {formatNumber(verdict.tokens.total)} / {formatNumber(verdict.limit)} limit · {formatNumber(verdict.contextWindow)} window
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
        {layout.budgetLine !== null ? (
          <span
            className={styles.budgetLine}
            data-budget-line=""
            style={{ left: percent(layout.budgetLine) }}
            title={`Token budget: ${formatNumber(verdict.limit)}`}
          />
        ) : null}
      </div>
      <ul className={styles.legend} aria-label="Context window split">
        {visible.map((segment) => (
          <li key={segment.key} data-segment={segment.key}>
            <span className={styles.swatch} data-segment={segment.key} aria-hidden="true" />
            <span className={styles.legendLabel}>{segment.label}</span>
            <span className={styles.legendValue}>
              {approx}
              {formatNumber(segment.tokens)}
            </span>
            {/* Free is measured against the limit that applies, everything else against the window. */}
            <span className={styles.legendShare}>{share(segment.tokens, segment.key === "free" ? verdict.limit : verdict.contextWindow)}</span>
          </li>
        ))}
        <li data-segment="budget">
          <span className={styles.swatch} data-segment="budget" aria-hidden="true" />
          <span className={styles.legendLabel}>{verdict.limitedBy === "budget" ? "Token budget" : "Limit (window − reserve)"}</span>
          <span className={styles.legendValue}>{formatNumber(verdict.limit)}</span>
          <span className={styles.legendShare} />
        </li>
      </ul>
      <Verdict verdict={verdict} trimmed={trimmed} />
      {approximation ? <p className={styles.approximate}>Counts are approximate: {approximation}.</p> : null}
    </section>
  );
}

function Verdict({ verdict, trimmed }: { verdict: BudgetVerdict; trimmed?: TokenBudgetTrimmed }) {
  // A request that is not sent dropped nothing from what was sent: no "dropped to fit" beside "nothing sent".
  const trimmedText =
    verdict.ok && trimmed && trimmed.messages > 0
      ? `The token budget dropped ${plural(trimmed.messages, "message")} (−${formatNumber(trimmed.tokensSaved)} tokens) to fit.`
      : null;
  return (
    <div className={styles.verdict} role="status" aria-live="polite">
      {verdict.ok ? (
        <p className={styles.within}>Within budget: {formatNumber(verdict.limit - verdict.tokens.total)} tokens to spare.</p>
      ) : (
        <div className={styles.over}>
          <strong>Over budget: nothing would be sent.</strong> {verdict.reason}.
        </div>
      )}
      {trimmedText ? <p className={styles.trimmed}>{trimmedText}</p> : null}
    </div>
  );
}
