import styles from "./conversation-view.module.css";

const EFFECTS = [
  ["offloaded", "content moved behind a handle"],
  ["compressed", "tool chain folded into a summary"],
  ["summarised", "older rounds summarised"],
  ["dropped", "left out of the history"],
  ["truncated", "cut to fit"],
] as const;

/** What the row colours and chips mean. */
export function MarkLegend() {
  return (
    <ul className={styles.legend} aria-label="What the marks mean">
      {EFFECTS.map(([kind, meaning]) => (
        <li key={kind} title={meaning}>
          <span className={styles.mark} data-kind={kind}>
            {kind}
          </span>
        </li>
      ))}
      <li title="a contiguous run of tool calls and results, one hue per chain">
        <span className={styles.legendChain} aria-hidden /> tool chain
      </li>
      <li title="a user message through the next final answer">
        <span className={styles.legendBand} aria-hidden /> round
      </li>
    </ul>
  );
}
