"use client";

import type { CostTimelinePoint } from "@/lib/client/types";
import { formatNumber } from "@/components/pipeline/format";
import { CACHE_BREAK_LABELS } from "./cache-break-labels";
import styles from "./calls.module.css";

const BAR = 14;
const GAP = 6;
const HEIGHT = 120;

function describe(point: CostTimelinePoint): string {
  const parts = [`Call ${point.index + 1}${point.subagent ? " (subagent)" : ""}`];
  parts.push(`${formatNumber(point.cacheRead)} read from the cache, ${formatNumber(point.cacheWrite)} written, ${formatNumber(point.miss)} uncached`);
  if (point.gapSeconds !== null)
    parts.push(`${formatNumber(Math.round(point.gapSeconds))} s after the call before${point.expired ? ", past the cache's lifetime" : ""}`);
  if (point.cacheBreak) parts.push(`cache broke: ${CACHE_BREAK_LABELS[point.cacheBreak]}`);
  return parts.join("; ");
}

/**
 * The session over time: per call, the input read from the cache, written to
 * it and missed, as stacked bars; a call whose pause outlived the cache is
 * marked under its bar, a broken cache over it.
 */
export function CostTimeline({ points, onSelect }: { points: readonly CostTimelinePoint[]; onSelect?: (index: number) => void }) {
  const max = Math.max(1, ...points.map((point) => point.cacheRead + point.cacheWrite + point.miss));
  const width = points.length * (BAR + GAP) + GAP;
  const scale = (tokens: number) => (tokens / max) * HEIGHT;
  return (
    <figure className={styles.chart} aria-label="Session timeline">
      <figcaption className={styles.legend}>
        Input per call, up to {formatNumber(max)} tokens:
        <span>
          <span className={styles.key} data-segment="cache-read" aria-hidden="true" /> read from the cache
        </span>
        <span>
          <span className={styles.key} data-segment="cache-write" aria-hidden="true" /> written to it
        </span>
        <span>
          <span className={styles.key} data-segment="cache-miss" aria-hidden="true" /> uncached
        </span>
        <span>▲ cache broke · ◆ paused past the cache&apos;s lifetime</span>
      </figcaption>
      <div className={styles.chartScroller}>
        <svg width={width} height={HEIGHT + 30} viewBox={`0 0 ${width} ${HEIGHT + 30}`} className={styles.svg}>
          <title>Input per call: read from the cache, written to it and uncached</title>
          {points.map((point, position) => {
            const x = GAP + position * (BAR + GAP);
            const read = scale(point.cacheRead);
            const write = scale(point.cacheWrite);
            const miss = scale(point.miss);
            const top = HEIGHT + 10 - read - write - miss;
            return (
              <g
                key={`${point.conversationId}-${point.index}`}
                role="button"
                tabIndex={0}
                aria-label={describe(point)}
                className={styles.bar}
                data-subagent={point.subagent || undefined}
                onClick={() => onSelect?.(point.index)}
                onKeyDown={(event) => {
                  if (event.key === "Enter" || event.key === " ") onSelect?.(point.index);
                }}
              >
                <title>{describe(point)}</title>
                <rect x={x - 1} y={0} width={BAR + 2} height={HEIGHT + 30} className={styles.barHit} />
                <rect x={x} y={HEIGHT + 10 - read} width={BAR} height={Math.max(read, 0)} data-segment="cache-read" />
                <rect x={x} y={HEIGHT + 10 - read - write} width={BAR} height={Math.max(write, 0)} data-segment="cache-write" />
                <rect x={x} y={top} width={BAR} height={Math.max(miss, 0.5)} data-segment="cache-miss" />
                {point.cacheBreak ? (
                  <text x={x + BAR / 2} y={Math.max(8, top - 2)} textAnchor="middle" className={styles.breakMark}>
                    ▲
                  </text>
                ) : null}
                {point.expired ? (
                  <text x={x + BAR / 2} y={HEIGHT + 24} textAnchor="middle" className={styles.breakMark}>
                    ◆
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
    </figure>
  );
}
