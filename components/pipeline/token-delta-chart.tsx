"use client";

import type { KeyboardEvent } from "react";
import type { StepSummary } from "@/lib/playground/protocol";
import { approximately, changeDirection, formatCompact, formatDelta, formatMs, formatNumber } from "./format";
import { describeEffects } from "./step-effects";
import styles from "./token-delta-chart.module.css";

export interface TokenDeltaChartProps {
  /** `RunResult.steps`, in run order. */
  steps: readonly StepSummary[];
  /** Index into `steps` of the selected step. */
  selectedStep?: number | null;
  /** A processor's row was clicked (or chosen with Enter/Space/arrow keys). */
  onSelectStep?(index: number): void;
  /** Counts made with a tokenizer standing in for the model's: each shows "≈". */
  approximate?: boolean;
}

/** One step's accessible description: "round_window: tokens 12,000 → 8,000 (−4,000), messages 120 → 80, 1.20 ms". */
export function describeStep(step: StepSummary, approximate = false): string {
  const effects = describeEffects(step.effects);
  return (
    `${step.processor}: tokens ${approximately(approximate)}${formatNumber(step.tokensBefore)} → ${formatNumber(step.tokensAfter)} (${formatDelta(step.tokensBefore, step.tokensAfter)}), ` +
    `messages ${formatNumber(step.messagesBefore)} → ${formatNumber(step.messagesAfter)}, ${formatMs(step.ms)} ms${effects ? `; ${effects}` : ""}`
  );
}

/** Paired bars per processor: tokens and messages before → after, with delta labels and timing; a row selects its step. */
export function TokenDeltaChart({ steps, selectedStep, onSelectStep, approximate = false }: TokenDeltaChartProps) {
  const approx = approximately(approximate);
  if (steps.length === 0) return <p className={styles.empty}>No processor ran: enable one to see its token deltas.</p>;
  const maxTokens = Math.max(1, ...steps.flatMap((step) => [step.tokensBefore, step.tokensAfter]));
  const maxMessages = Math.max(1, ...steps.flatMap((step) => [step.messagesBefore, step.messagesAfter]));
  const first = steps[0];
  const last = steps[steps.length - 1];
  const totalMs = steps.reduce((sum, step) => sum + step.ms, 0);

  function onKeyDown(event: KeyboardEvent<HTMLOListElement>) {
    if (!onSelectStep || (event.key !== "ArrowDown" && event.key !== "ArrowUp")) return;
    event.preventDefault();
    const current = selectedStep ?? (event.key === "ArrowDown" ? -1 : steps.length);
    const next = Math.min(steps.length - 1, Math.max(0, current + (event.key === "ArrowDown" ? 1 : -1)));
    onSelectStep(next);
    event.currentTarget.querySelectorAll<HTMLButtonElement>("button")[next]?.focus();
  }

  return (
    <figure className={styles.chart} aria-label="Token deltas per processor">
      <div className={styles.legend} aria-hidden="true">
        <span className={styles.key} data-bar="before" /> before
        <span className={styles.key} data-bar="after" /> after
        <span className={styles.key} data-bar="messages" /> messages
      </div>
      <ol className={styles.rows} onKeyDown={onKeyDown}>
        {steps.map((step, index) => (
          <li key={`${index}-${step.processor}`}>
            <button
              type="button"
              className={styles.row}
              aria-pressed={selectedStep === index}
              aria-label={describeStep(step, approximate)}
              onClick={() => onSelectStep?.(index)}
              data-step={index}
            >
              <span className={styles.name} title={step.processor}>
                {step.processor}
              </span>
              <StepBars step={step} maxTokens={maxTokens} maxMessages={maxMessages} />
              <span className={styles.delta} data-change={changeDirection(step.tokensBefore, step.tokensAfter)}>
                {formatDelta(step.tokensBefore, step.tokensAfter)}
              </span>
              <span className={styles.detail}>
                {approx}
                {formatCompact(step.tokensBefore)} → {formatCompact(step.tokensAfter)} tok · {formatNumber(step.messagesBefore)} →{" "}
                {formatNumber(step.messagesAfter)} msg · {formatMs(step.ms)} ms
              </span>
            </button>
          </li>
        ))}
      </ol>
      <figcaption className={styles.caption}>
        {approx}
        {formatNumber(first.tokensBefore)} → {formatNumber(last.tokensAfter)} tokens ({formatDelta(first.tokensBefore, last.tokensAfter)}),{" "}
        {formatNumber(first.messagesBefore)} → {formatNumber(last.messagesAfter)} messages in {formatMs(totalMs)} ms
      </figcaption>
    </figure>
  );
}

const WIDTH = 100;

/** Hand-drawn SVG: the before bar, the after bar over it with the removed (or added) part marked, and a thin messages pair. */
function StepBars({ step, maxTokens, maxMessages }: { step: StepSummary; maxTokens: number; maxMessages: number }) {
  const before = (step.tokensBefore / maxTokens) * WIDTH;
  const after = (step.tokensAfter / maxTokens) * WIDTH;
  const messagesBefore = (step.messagesBefore / maxMessages) * WIDTH;
  const messagesAfter = (step.messagesAfter / maxMessages) * WIDTH;
  const direction = changeDirection(step.tokensBefore, step.tokensAfter);
  return (
    <svg className={styles.bars} viewBox={`0 0 ${WIDTH} 22`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect data-bar="before" x={0} y={0} width={before} height={7} />
      <rect data-bar="after" x={0} y={8} width={after} height={7} />
      {direction !== "none" ? (
        <rect data-bar={direction === "down" ? "removed" : "added"} x={Math.min(before, after)} y={8} width={Math.abs(before - after)} height={7} />
      ) : null}
      <rect data-bar="messages-before" x={0} y={17} width={messagesBefore} height={2} />
      <rect data-bar="messages" x={0} y={20} width={messagesAfter} height={2} />
    </svg>
  );
}
