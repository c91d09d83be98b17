import type { CallSummary } from "@/lib/calls/types";
import { errorText, statusText } from "@/components/calls/call-format";
import styles from "./conversation-view.module.css";

/** Failed model calls made at this point of the history: where the agent asked and got no answer. */
export function FailedCallMarkers({ calls, onOpenCalls }: { calls: readonly CallSummary[]; onOpenCalls?: () => void }) {
  return (
    <div className={styles.failedCalls}>
      {calls.map((call) => (
        <p key={call.id} className={styles.failedCall} role="note" aria-label={`Failed call: ${statusText(call)}`}>
          <strong>Call failed · {statusText(call)}</strong>
          {call.error ? <span>{errorText(call)}</span> : null}
          {call.retries > 0 ? <span>retry {call.retries}</span> : null}
          {onOpenCalls ? (
            <button type="button" className={styles.failedCallOpen} onClick={onOpenCalls}>
              Show calls
            </button>
          ) : null}
        </p>
      ))}
    </div>
  );
}
