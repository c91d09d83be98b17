"use client";

import type { KeyboardEvent } from "react";
import type { CallSummary } from "@/lib/calls/types";
import { formatNumber } from "@/components/pipeline/format";
import { layoutCallChart, SEGMENT_KEYS, SEGMENT_LABELS, type ChartBar } from "./chart-data";
import styles from "./calls.module.css";

export interface TokenChartProps {
  calls: readonly CallSummary[];
  selectedId: string | null;
  onSelect(callId: string): void;
}

function describeBar(bar: ChartBar): string {
  if (!bar.tokens) return `Call ${bar.number}: input not counted (its body could not be read)`;
  const parts = SEGMENT_KEYS.map((key) => `${SEGMENT_LABELS[key]} ${formatNumber(bar.tokens![key])}`).join(", ");
  return `Call ${bar.number}${bar.failed ? " (failed)" : ""}: ${formatNumber(bar.tokens.total)} input tokens: ${parts}`;
}

/** Input tokens per call as stacked SVG bars (system, tools, history, new turns); a bar opens its call. */
export function TokenChart({ calls, selectedId, onSelect }: TokenChartProps) {
  const layout = layoutCallChart(calls);
  const onKeyDown = (event: KeyboardEvent<SVGGElement>, callId: string) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    onSelect(callId);
  };
  return (
    <figure className={styles.chart} aria-label="Input tokens per call">
      <figcaption className={styles.legend}>
        Input tokens per call, up to {formatNumber(layout.max)}:
        {SEGMENT_KEYS.map((key) => (
          <span key={key}>
            <span className={styles.key} data-segment={key} aria-hidden="true" /> {SEGMENT_LABELS[key]}
          </span>
        ))}
      </figcaption>
      <div className={styles.chartScroller}>
        <svg width={layout.width} height={layout.height + 14} viewBox={`0 0 ${layout.width} ${layout.height + 14}`} className={styles.svg}>
          {layout.bars.map((bar) => (
            <g
              key={bar.callId}
              role="button"
              tabIndex={0}
              aria-label={describeBar(bar)}
              aria-pressed={bar.callId === selectedId}
              className={styles.bar}
              data-failed={bar.failed || undefined}
              onClick={() => onSelect(bar.callId)}
              onKeyDown={(event) => onKeyDown(event, bar.callId)}
            >
              <title>{describeBar(bar)}</title>
              {/* The whole column is the target, so a failed call with few tokens is still easy to click. */}
              <rect x={bar.x - 1} y={0} width={bar.width + 2} height={layout.height} className={styles.barHit} />
              {bar.segments.map((segment) => (
                <rect key={segment.key} x={bar.x} y={segment.y} width={bar.width} height={Math.max(segment.height, 0.5)} data-segment={segment.key} />
              ))}
              <text x={bar.x + bar.width / 2} y={layout.height + 11} textAnchor="middle" className={styles.barLabel}>
                {bar.number}
              </text>
            </g>
          ))}
        </svg>
      </div>
    </figure>
  );
}
