import type { DiffValue, ValuesDiff } from "@/lib/api/diff";
import { checkpointName, previewJson, type CheckpointRow } from "./checkpoint-format";
import styles from "./checkpoint-diff.module.css";

export interface CheckpointDiffViewProps {
  from: Pick<CheckpointRow, "version" | "branchName" | "messageCount">;
  to: Pick<CheckpointRow, "version" | "branchName" | "messageCount">;
  diff: ValuesDiff;
  /** The text of the summary each checkpoint stands on (its values hold only where the summary ends). */
  summaries?: { from?: string; to?: string };
}

type Change =
  | { kind: "added"; path: string; value: DiffValue }
  | { kind: "updated"; path: string; from: DiffValue; to: DiffValue }
  | { kind: "removed"; path: string; value: DiffValue };

const SIGNS = { added: "+", updated: "~", removed: "−" } as const;

/** Every change, ordered by path so related keys sit together. */
export function changesOf(diff: ValuesDiff): Change[] {
  const changes: Change[] = [
    ...Object.entries(diff.added).map(([path, value]) => ({ kind: "added" as const, path, value })),
    ...Object.entries(diff.updated).map(([path, [from, to]]) => ({ kind: "updated" as const, path, from, to })),
    ...Object.entries(diff.removed).map(([path, value]) => ({ kind: "removed" as const, path, value })),
  ];
  return changes.sort((left, right) => left.path.localeCompare(right.path));
}

/** What changed between two checkpoints' values: added, updated (from → to) and removed keys by dotted path. */
export function CheckpointDiffView({ from, to, diff, summaries = {} }: CheckpointDiffViewProps) {
  const changes = changesOf(diff);
  const counts = { added: Object.keys(diff.added).length, updated: Object.keys(diff.updated).length, removed: Object.keys(diff.removed).length };
  return (
    <section className={styles.diff} aria-label={`Diff of ${checkpointName(from)} and ${checkpointName(to)}`}>
      <header className={styles.header}>
        <h3>
          {checkpointName(from)} → {checkpointName(to)}
        </h3>
        <p className={styles.counts}>
          <span data-kind="added">{counts.added} added</span> · <span data-kind="updated">{counts.updated} updated</span> ·{" "}
          <span data-kind="removed">{counts.removed} removed</span>
        </p>
      </header>
      {changes.length === 0 ? (
        <p className={styles.same}>The two checkpoints hold the same values.</p>
      ) : (
        <table className={styles.table} aria-label="Changed values">
          <thead>
            <tr>
              <th scope="col">
                <span className={styles.hidden}>Change</span>
              </th>
              <th scope="col">Path</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={`${change.kind}:${change.path}`} data-kind={change.kind}>
                <td className={styles.sign} aria-label={change.kind}>
                  {SIGNS[change.kind]}
                </td>
                <th scope="row" className={styles.path}>
                  {change.path}
                </th>
                <td className={styles.value}>
                  {change.kind === "updated" ? (
                    <>
                      <del>{previewJson(change.from, 200)}</del>
                      <span aria-hidden="true"> → </span>
                      <ins>{previewJson(change.to, 200)}</ins>
                    </>
                  ) : change.kind === "added" ? (
                    <ins>{previewJson(change.value, 200)}</ins>
                  ) : (
                    <del>{previewJson(change.value, 200)}</del>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summaries.from !== undefined || summaries.to !== undefined ? (
        <div className={styles.summaries}>
          {(
            [
              ["from", from, summaries.from],
              ["to", to, summaries.to],
            ] as const
          ).map(([side, checkpoint, text]) => (
            <figure key={side} className={styles.summary} data-kind={side === "from" ? "removed" : "added"}>
              <figcaption>Summary at {checkpointName(checkpoint)}</figcaption>
              <pre aria-label={`Summary at ${checkpointName(checkpoint)}`}>{text ?? "No summary text stored."}</pre>
            </figure>
          ))}
        </div>
      ) : null}
    </section>
  );
}
