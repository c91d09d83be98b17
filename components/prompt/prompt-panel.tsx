"use client";

import { useId, useState } from "react";
import ui from "@/components/ui/ui.module.css";
import { apiClient, type ApiClient, type AssembledPrompt, type SettingsOverrides } from "@/lib/client";
import { useApiAction } from "@/lib/client/hooks";
import { PromptPreview } from "./prompt-preview";
import { usePromptPreview } from "./use-prompt-preview";
import styles from "./prompt-preview.module.css";

export interface PromptPanelProps {
  branchId: string | null;
  client?: ApiClient;
  /** Unsaved settings to preview with (the threshold panel's). */
  settings?: SettingsOverrides;
  /** Bump to assemble again (after a recorded turn). */
  revision?: number;
  /** "Assemble and compact" persisted a compaction: other views (checkpoints, state) should reload. */
  onCompacted?: () => void;
}

/** The Prompt tab: type the next user turn and see what seed 002's assembly would send. */
export function PromptPanel({ branchId, client = apiClient, settings, revision = 0, onCompacted }: PromptPanelProps) {
  const [userTurn, setUserTurn] = useState("");
  const [assembled, setAssembled] = useState<{ turn: string; prompt: AssembledPrompt } | null>(null);
  const [assembleRevision, setAssembleRevision] = useState(0);
  const inputId = useId();
  const preview = usePromptPreview(client, branchId, userTurn, { settings, revision: revision + assembleRevision });
  const assemble = useApiAction(async () => {
    if (branchId === null) return undefined;
    const prompt = await client.assemblePrompt(branchId, { userTurn: userTurn === "" ? undefined : userTurn, settings });
    setAssembled({ turn: userTurn, prompt });
    if (prompt.compaction) {
      setAssembleRevision((value) => value + 1);
      onCompacted?.();
    }
    return prompt;
  });

  if (branchId === null) return <p className={styles.muted}>Open a conversation to preview its next prompt.</p>;
  // A real assembly's result stands until the typed turn changes.
  const shown = assembled && assembled.turn === userTurn ? assembled.prompt : preview.data;

  return (
    <div className={styles.panel}>
      <div className={styles.turn}>
        <label htmlFor={inputId}>Next user turn</label>
        <textarea id={inputId} value={userTurn} placeholder="Type what the user says next; retrieval searches for it." onChange={(event) => setUserTurn(event.target.value)} />
      </div>
      <div className={styles.row}>
        <button type="button" className={ui.button} onClick={() => void assemble.run()} disabled={assemble.pending} title="Assembles for real: compacts and persists first when the branch is due or over budget">
          {assemble.pending ? "Assembling…" : "Assemble and compact"}
        </button>
        <span className={styles.muted}>{preview.loading ? "Updating preview…" : "Preview: nothing is written."}</span>
      </div>
      {preview.error ? (
        <p className={styles.error} role="alert">
          Could not assemble the prompt: {preview.error.message}
        </p>
      ) : null}
      {assemble.error ? (
        <p className={styles.error} role="alert">
          Assembling failed: {assemble.error.message}
        </p>
      ) : null}
      {shown ? <PromptPreview prompt={shown} refreshing={preview.loading} /> : preview.loading ? <p className={styles.muted}>Assembling the prompt…</p> : null}
    </div>
  );
}
