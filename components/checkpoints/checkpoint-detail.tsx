import { checkpointName, formatNumber, formatTime, previewJson, type CheckpointRow } from "./checkpoint-format";
import { JsonTree } from "./json-tree";
import styles from "./checkpoints.module.css";

export interface CheckpointDetailProps {
  checkpoint: CheckpointRow;
  onClose?: () => void;
}

const REASON_LABELS: Readonly<Record<string, string>> = { "agent-compaction": "compacted by the agent" };

/** A compaction the agent made (an imported session's): what it replaced, the tokens before and after, and the summary. */
function AgentCompaction({ metadata }: { metadata: Readonly<Record<string, unknown>> }) {
  const replaced = metadata.replaced as { toPosition?: number } | undefined;
  const before = typeof metadata.tokensBefore === "number" ? metadata.tokensBefore : null;
  const after = typeof metadata.tokensAfter === "number" ? metadata.tokensAfter : null;
  const replacement = Array.isArray(metadata.replacement) ? metadata.replacement.length : 0;
  return (
    <>
      <h4>Compaction</h4>
      <p className={styles.facts}>
        {typeof metadata.agent === "string" ? metadata.agent : "The agent"}
        {typeof metadata.trigger === "string" ? ` (${metadata.trigger})` : ""} replaced messages 0–{formatNumber((replaced?.toPosition ?? 1) - 1)}
        {before !== null && after !== null ? `: ${formatNumber(before)} → ${formatNumber(after)} tokens` : ""}
        {replacement > 0 ? ` · the model received ${formatNumber(replacement)} messages in their place` : ""}
      </p>
      {typeof metadata.summary === "string" && metadata.summary !== "" ? (
        <pre className={styles.summaryText} aria-label="Compaction summary">
          {metadata.summary}
        </pre>
      ) : null}
    </>
  );
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
        {reason ? ` · ${REASON_LABELS[reason] ?? reason}` : ""}
      </p>
      {reason === "agent-compaction" && checkpoint.metadata ? <AgentCompaction metadata={checkpoint.metadata} /> : null}
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
