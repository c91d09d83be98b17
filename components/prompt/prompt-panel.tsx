"use client";

import { useId, useState } from "react";
import ui from "@/components/ui/ui.module.css";
import { apiClient, type ApiClient, type PromptResponse } from "@/lib/client";
import { useApiAction } from "@/lib/client/hooks";
import type { RequestView } from "@/lib/request";
import { PromptPreview } from "./prompt-preview";
import styles from "./prompt-preview.module.css";

export interface PromptPanelProps {
  branchId: string | null;
  /** The next request as the workspace builds it (the same one the header and the budget bar show); null before the first build. */
  view: PromptPreviewView | null;
  /** A build is under way. */
  running?: boolean;
  /** The user turn typed here: every view shows the request as if it came next. */
  nextTurn: string;
  onNextTurnChange(text: string): void;
  client?: ApiClient;
  /** "Compact now" persisted a summary: the workspace reloads the branch's memory. */
  onCompacted?(response: PromptResponse): void;
}

export type PromptPreviewView = Pick<RequestView, "model" | "maxTokens" | "messages" | "tools" | "sections" | "verdict" | "tokenizer">;

/** The Prompt tab: type the next user turn and see the exact request the model would receive, section by section. */
export function PromptPanel({ branchId, view, running = false, nextTurn, onNextTurnChange, client = apiClient, onCompacted }: PromptPanelProps) {
  const inputId = useId();
  const [compacted, setCompacted] = useState<PromptResponse | null>(null);
  const compact = useApiAction(async () => {
    if (branchId === null) return undefined;
    const response = await client.assemblePrompt(branchId, { userTurn: nextTurn === "" ? undefined : nextTurn, compact: true });
    setCompacted(response);
    if (response.compaction) onCompacted?.(response);
    return response;
  });
  if (branchId === null && view === null) return <p className={styles.muted}>Open a conversation to see its next request.</p>;
  const compaction = compacted?.compaction;

  return (
    <div className={styles.panel}>
      <div className={styles.turn}>
        <label htmlFor={inputId}>Next user turn</label>
        <textarea
          id={inputId}
          value={nextTurn}
          placeholder="Type what the user says next; retrieval searches for it."
          onChange={(event) => onNextTurnChange(event.target.value)}
        />
      </div>
      {branchId !== null ? (
        <div className={styles.row}>
          <button
            type="button"
            className={ui.button}
            onClick={() => void compact.run()}
            disabled={compact.pending}
            title="Summarises what the branch is due to summarise (or what gets an over-budget request to fit) and saves it"
          >
            {compact.pending ? "Compacting…" : "Compact now"}
          </button>
          <span className={styles.muted}>
            {compacted && !compaction ? "Nothing to compact: the branch is not due and the request fits or cannot be helped by it." : null}
            {compaction
              ? `Summarised messages ${compaction.summary.fromPosition}–${compaction.summary.toPosition - 1} into checkpoint v${compaction.checkpoint.version}.`
              : null}
          </span>
        </div>
      ) : null}
      {compact.error ? (
        <p className={styles.error} role="alert">
          Compacting failed: {compact.error.message}
        </p>
      ) : null}
      {view ? <PromptPreview view={view} refreshing={running} /> : <p className={styles.muted}>Building the request…</p>}
    </div>
  );
}
