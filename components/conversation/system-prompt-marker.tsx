import type { SystemPromptShift } from "@/lib/formats";
import { WordDiff } from "@/components/pipeline/word-diff";
import styles from "./conversation-view.module.css";

const promptText = (messages: SystemPromptShift["before"]) => messages.map((message) => message.content ?? "").join("\n\n");

/** P-SP2: where the agent sent another system prompt than the turns before were sent with, and what changed in it. */
export function SystemPromptMarker({ shift }: { shift: SystemPromptShift }) {
  const before = promptText(shift.before);
  const after = promptText(shift.after);
  return (
    <details className={styles.promptChange} role="note" aria-label="System prompt changed">
      <summary>
        <strong>System prompt changed</strong>
        <span>
          {after === "" ? "removed" : before === "" ? "added" : `${before.length.toLocaleString("en")} → ${after.length.toLocaleString("en")} characters`}
        </span>
      </summary>
      <WordDiff before={before} after={after} />
    </details>
  );
}
