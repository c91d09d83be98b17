import { formatCompact } from "@/components/pipeline/format";
import type { Series } from "./compare-format";
import styles from "./compare.module.css";

export interface LineChartProps {
  title: string;
  series: readonly Series[];
  /** How a value reads in the legend and the tooltips. */
  format: (value: number) => string;
  /** What the legend shows per run: the last value (running totals) or the sum (per-call values). */
  legend: "last" | "sum";
  /** The call whose request the drill-down shows. */
  selectedCall?: number | null;
  onSelectCall?: (call: number) => void;
}

const WIDTH = 360;
const HEIGHT = 140;
const PAD = { left: 40, right: 8, top: 8, bottom: 18 };

function legendValue(values: readonly (number | null)[], legend: "last" | "sum"): number | null {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return null;
  return legend === "last" ? known[known.length - 1] : known.reduce((sum, value) => sum + value, 0);
}

/** Runs as lines over the calls, in SVG; the legend carries each run's figure so it can be read without the lines. */
export function LineChart({ title, series, format, legend, selectedCall = null, onSelectCall }: LineChartProps) {
  const calls = Math.max(0, ...series.map((entry) => entry.values.length));
  const max = Math.max(1, ...series.flatMap((entry) => entry.values.filter((value): value is number => value !== null)));
  const x = (call: number) => PAD.left + (calls <= 1 ? 0 : (call / (calls - 1)) * (WIDTH - PAD.left - PAD.right));
  const y = (value: number) => PAD.top + (1 - value / max) * (HEIGHT - PAD.top - PAD.bottom);
  const figures = series.map((entry) => ({ entry, value: legendValue(entry.values, legend) }));
  const summary = figures.map(({ entry, value }) => `${entry.label} ${value === null ? "unknown" : format(value)}`).join("; ");
  return (
    <figure className={styles.chart} aria-label={title}>
      <figcaption className={styles.chartTitle}>{title}</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${title}: ${summary}`} className={styles.svg}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(0)} y2={y(0)} className={styles.axis} />
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(max)} y2={y(max)} className={styles.grid} />
        <text x={PAD.left - 4} y={y(max) + 4} className={styles.tick} textAnchor="end">
          {formatCompact(max)}
        </text>
        <text x={PAD.left - 4} y={y(0)} className={styles.tick} textAnchor="end">
          0
        </text>
        <text x={PAD.left} y={HEIGHT - 4} className={styles.tick}>
          call 1
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 4} className={styles.tick} textAnchor="end">
          {`call ${calls}`}
        </text>
        {selectedCall !== null && selectedCall < calls ? (
          <line x1={x(selectedCall)} x2={x(selectedCall)} y1={PAD.top} y2={y(0)} className={styles.cursor} />
        ) : null}
        {series.map((entry, order) => {
          const points = entry.values.flatMap((value, call) => (value === null ? [] : [`${x(call).toFixed(1)},${y(value).toFixed(1)}`]));
          return <polyline key={entry.id} points={points.join(" ")} className={styles.line} data-series={order} />;
        })}
        {onSelectCall && calls > 0
          ? Array.from({ length: calls }, (_, call) => (
              <rect
                key={call}
                x={x(call) - (WIDTH - PAD.left - PAD.right) / Math.max(1, calls) / 2}
                y={PAD.top}
                width={(WIDTH - PAD.left - PAD.right) / Math.max(1, calls)}
                height={HEIGHT - PAD.top - PAD.bottom}
                className={styles.hit}
                onClick={() => onSelectCall(call)}
              >
                <title>{`Call ${call + 1}: ${series.map((entry) => `${entry.label} ${entry.values[call] === null || entry.values[call] === undefined ? "—" : format(entry.values[call] as number)}`).join(", ")}`}</title>
              </rect>
            ))
          : null}
      </svg>
      <ul className={styles.legend} aria-label={`${title} legend`}>
        {figures.map(({ entry, value }, order) => (
          <li key={entry.id} data-series-id={entry.id} data-value={value ?? ""}>
            <span className={styles.key} data-series={order} aria-hidden />
            {entry.label}: <strong>{value === null ? "unknown" : format(value)}</strong>
          </li>
        ))}
      </ul>
    </figure>
  );
}
