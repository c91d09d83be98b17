import type { RequestTokens } from "@/lib/context/light";
import type { StepSummary } from "@/lib/playground/protocol";
import { approximately, changeDirection, formatDelta, formatMs, formatNumber, sentTerms } from "./format";
import { describeEffects } from "./step-effects";
import ui from "@/components/ui/ui.module.css";
import styles from "./trace-table.module.css";

export interface TraceTableProps {
  /** `RunResult.steps`, in run order. */
  steps: readonly StepSummary[];
  /** Index into `steps` of the selected step (highlighted). */
  selectedStep?: number | null;
  /** Makes each processor name a button that selects its step (the step diff then shows it). */
  onSelectStep?(index: number): void;
  /** The request's tokens (its verdict's): a last row says how the steps' tokens become what is sent. */
  sent?: { tokens: RequestTokens; messages: number };
  /** Counts made with a tokenizer standing in for the model's: each shows "≈". */
  approximate?: boolean;
}

/** The pipeline trace: one row per processor with messages and tokens before → after, the delta, what it did and how long it took. */
export function TraceTable({ steps, selectedStep, onSelectStep, sent, approximate = false }: TraceTableProps) {
  const approx = approximately(approximate);
  return (
    <div className={ui.tableScroller}>
      <table className={`${styles.table} ${ui.stickyFirst}`} aria-label="Pipeline trace">
        <thead>
          <tr>
            <th scope="col">Processor</th>
            <th scope="col">Messages</th>
            <th scope="col">Tokens</th>
            <th scope="col">Δ tokens</th>
            <th scope="col">Effects</th>
            <th scope="col">ms</th>
          </tr>
        </thead>
        <tbody>
          {steps.length === 0 ? (
            <tr>
              <td colSpan={6} className={styles.empty}>
                No processor ran: every processor is disabled.
              </td>
            </tr>
          ) : null}
          {steps.map((step, index) => {
            const selected = selectedStep === index;
            return (
              <tr
                key={`${index}-${step.processor}`}
                data-selected={selected || undefined}
                onClick={onSelectStep ? () => onSelectStep(index) : undefined}
                className={onSelectStep ? styles.selectable : undefined}
              >
                <th scope="row">
                  {onSelectStep ? (
                    <button
                      type="button"
                      className={styles.select}
                      aria-pressed={selected}
                      onClick={(event) => {
                        event.stopPropagation();
                        onSelectStep(index);
                      }}
                    >
                      {step.processor}
                    </button>
                  ) : (
                    step.processor
                  )}
                </th>
                <td>
                  <span className={styles.before}>{formatNumber(step.messagesBefore)} →</span> {formatNumber(step.messagesAfter)}
                </td>
                <td>
                  {approx}
                  <span className={styles.before}>{formatNumber(step.tokensBefore)} →</span> {formatNumber(step.tokensAfter)}
                </td>
                <td data-change={changeDirection(step.tokensBefore, step.tokensAfter)}>{formatDelta(step.tokensBefore, step.tokensAfter)}</td>
                <td className={styles.effects}>{describeEffects(step.effects) || "—"}</td>
                <td>{formatMs(step.ms)}</td>
              </tr>
            );
          })}
        </tbody>
        {sent ? (
          <tfoot>
            <tr data-sent="">
              <th scope="row">Sent</th>
              <td>{formatNumber(sent.messages)}</td>
              <td>
                {approx}
                {formatNumber(sent.tokens.total)}
              </td>
              {/* The steps count the reply priming with the messages (E-T1); the tools come on top. */}
              <td colSpan={3}>{sentTerms(sent.tokens, approximate)}</td>
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
