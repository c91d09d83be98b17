import ui from "@/components/ui/ui.module.css";
import styles from "./checkpoints.module.css";

export interface CheckpointsEmptyProps {
  onCheckpointNow?: () => void;
  pending?: boolean;
  /** What the last "Checkpoint now" said (nothing to compact yet, an error). */
  message?: string | null;
}

/** No checkpoints yet: when they appear and a way to write one now. */
export function CheckpointsEmpty({ onCheckpointNow, pending = false, message }: CheckpointsEmptyProps) {
  return (
    <div className={styles.empty} role="status">
      <h3>No checkpoints on this branch yet</h3>
      <p>
        A checkpoint is written when a turn takes the branch past its summary threshold: everything older than the 2 most recent rounds is summarised, and the
        checkpoint records the resulting state, its token usage and the artifacts it refers to. A fork inherits its parent&apos;s checkpoints up to the fork
        point and writes its own from then on.
      </p>
      {onCheckpointNow ? (
        <p>
          <button type="button" className={ui.button} data-variant="primary" onClick={onCheckpointNow} disabled={pending}>
            {pending ? "Checkpointing…" : "Checkpoint now"}
          </button>{" "}
          <span className={styles.muted}>summarises and checkpoints now, below the threshold too.</span>
        </p>
      ) : null}
      {message ? <p className={styles.message}>{message}</p> : null}
    </div>
  );
}
