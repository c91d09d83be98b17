import { checkpointName, formatNumber, formatTime, previewJson, type CheckpointRow } from "./checkpoint-format";
import { JsonTree } from "./json-tree";
import styles from "./checkpoints.module.css";

export interface CheckpointDetailProps {
  checkpoint: CheckpointRow;
  onClose?: () => void;
}

/** One checkpoint: its token usage, artifact refs and values as an expandable JSON tree. */
export function CheckpointDetail({ checkpoint, onClose }: CheckpointDetailProps) {
  const name = checkpointName(checkpoint);
  const usage = Object.entries(checkpoint.tokenUsage);
  const reason = checkpoint.metadata && typeof checkpoint.metadata.reason === "string" ? checkpoint.metadata.reason : null;
  return (
    <section className={styles.detail} aria-label={`Checkpoint ${name}`}>
      <header className={styles.detailHeader}>
        <h3>Checkpoint {name}</h3>
        {onClose ? (
          <button type="button" className={styles.close} onClick={onClose} aria-label={`Close checkpoint ${name}`}>
            ×
          </button>
        ) : null}
      </header>
      <p className={styles.facts}>
        {checkpoint.inherited ? "Inherited from an ancestor" : "Written on this branch"} · covers {formatNumber(checkpoint.messageCount)} messages ·{" "}
        {formatTime(checkpoint.createdAt)}
        {reason ? ` · ${reason}` : ""}
      </p>
      <h4>Token usage</h4>
      {usage.length === 0 ? (
        <p className={styles.muted}>No token usage recorded.</p>
      ) : (
        <dl className={styles.usage} aria-label="Token usage">
          {usage.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{typeof value === "number" ? formatNumber(value) : previewJson(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <h4>Artifact refs</h4>
      {checkpoint.artifactRefs.length === 0 ? (
        <p className={styles.muted}>None.</p>
      ) : (
        <ul className={styles.refs} aria-label="Artifact refs">
          {checkpoint.artifactRefs.map((ref) => (
            <li key={ref}>
              <code>{ref}</code>
            </li>
          ))}
        </ul>
      )}
      <h4>Values</h4>
      <JsonTree value={checkpoint.values} label={`Values of ${name}`} expandDepth={1} />
    </section>
  );
}
