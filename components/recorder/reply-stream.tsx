import type { DraftReply } from "./use-chat-recorder";
import styles from "./recorder.module.css";

export interface ReplyStreamProps {
  draft: DraftReply;
  streaming: boolean;
}

/** The assistant's reply as it streams in: text token by token, tool calls with their arguments growing. */
export function ReplyStream({ draft, streaming }: ReplyStreamProps) {
  const empty = draft.text === "" && draft.toolCalls.length === 0;
  // A call that ended without a reply (an error, the budget stop) leaves nothing to show.
  if (empty && !streaming) return null;
  return (
    <div className={styles.reply} role="log" aria-label="Assistant reply" aria-live="polite" aria-busy={streaming}>
      <span className={styles.role}>assistant</span>
      {empty && streaming ? <span className={styles.muted}>Waiting for the model…</span> : null}
      {draft.text !== "" ? <p className={styles.replyText}>{draft.text}</p> : null}
      {draft.toolCalls.map((call) => (
        <p key={call.index} className={styles.replyCall}>
          → <code>{call.name || "…"}</code>
          <code className={styles.muted}>({call.arguments})</code>
        </p>
      ))}
      {streaming ? <span className={styles.caret} aria-hidden="true" /> : null}
    </div>
  );
}
