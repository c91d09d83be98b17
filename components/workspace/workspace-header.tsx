"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { apiClient } from "@/lib/client";
import { fileStem } from "@/lib/policies";
import { downloadText } from "@/components/ui/download";
import { forkPositionOfSelection } from "@/lib/store";
import { usePlaygroundStore } from "@/lib/store/provider";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { flattenBranches } from "./branch-options";
import { FollowIndicator } from "./follow-indicator";
import styles from "./workspace.module.css";
import ui from "@/components/ui/ui.module.css";
import { SafeText } from "@/components/ui/safe-text";
import { safeLabel } from "@/components/ui/reveal-invisible";

const SAVE_TEXT = { idle: "", pending: "Unsaved changes", saving: "Saving…", saved: "Settings saved", error: "Save failed" } as const;

/** Title, branch switcher, fork, run and save status, theme and the shortcuts sheet. */
export function WorkspaceHeader() {
  const conversation = usePlaygroundStore((state) => state.conversation);
  const branch = usePlaygroundStore((state) => state.branch);
  const tree = usePlaygroundStore((state) => state.tree);
  const running = usePlaygroundStore((state) => state.running);
  const tokenizerLoading = usePlaygroundStore((state) => state.tokenizerLoading);
  const result = usePlaygroundStore((state) => state.result);
  const saveStatus = usePlaygroundStore((state) => state.saveStatus);
  const saveError = usePlaygroundStore((state) => state.saveError);
  const theme = usePlaygroundStore((state) => state.theme);
  const forking = usePlaygroundStore((state) => state.forking);
  const forkError = usePlaygroundStore((state) => state.forkError);
  const forkPosition = usePlaygroundStore(forkPositionOfSelection);
  const switchBranch = usePlaygroundStore((state) => state.switchBranch);
  const forkAtSelection = usePlaygroundStore((state) => state.forkAtSelection);
  const toggleTheme = usePlaygroundStore((state) => state.toggleTheme);
  const openDialog = usePlaygroundStore((state) => state.openDialog);
  const options = useMemo(() => flattenBranches(tree), [tree]);
  const [exportError, setExportError] = useState<string | null>(null);

  async function exportSession() {
    if (!conversation) return;
    setExportError(null);
    try {
      downloadText(await apiClient.exportSession(conversation.id), `${fileStem(conversation.title, "conversation")}.session.jsonl`, "application/x-ndjson");
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <header className={styles.header}>
      <Link href="/" className={styles.brand} aria-label="Context Lab home">
        Context Lab
      </Link>
      <h1 className={styles.title} title={conversation ? safeLabel(conversation.title) : undefined}>
        {conversation ? <SafeText text={conversation.title} /> : "Conversation"}
      </h1>
      <label className={styles.branchPicker}>
        <span>Current branch</span>
        <select value={branch?.id ?? ""} onChange={(event) => void switchBranch(event.target.value)} disabled={options.length < 2}>
          {options.map((option) => (
            <option key={option.id} value={option.id}>
              {`${"\u2002".repeat(option.depth * 2)}${option.depth > 0 ? "└ " : ""}${safeLabel(option.name)} · ${option.length}`}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={ui.button}
        disabled={forkPosition === null || forking}
        onClick={() => void forkAtSelection()}
        title={forkPosition === null ? "Select a message first (j/k or click)" : `The new branch inherits messages 0–${forkPosition - 1} (f)`}
      >
        {forking ? "Forking…" : forkPosition === null ? "Fork" : `Fork after #${forkPosition - 1}`}
      </button>
      <button
        type="button"
        className={ui.button}
        disabled={!conversation}
        onClick={() => void exportSession()}
        title="The conversation with its branches, checkpoints, summaries, offloaded content, proxy calls and policies, as one file"
      >
        Export session
      </button>
      <span className={styles.status} role="status" aria-label="Run status" aria-live="polite">
        {forkError ? <span className={styles.danger}>{forkError}</span> : null}
        {exportError ? <span className={styles.danger}>{exportError}</span> : null}
        {tokenizerLoading
          ? `Loading the ${tokenizerLoading} tokenizer…`
          : running
            ? "Running…"
            : result
              ? result.origin === "server"
                ? `First run, on the server · ${result.totalMs.toFixed(0)} ms`
                : `Run ${result.revision} · ${result.totalMs.toFixed(0)} ms`
              : ""}
        {saveStatus !== "idle" ? (
          <span className={saveStatus === "error" ? styles.danger : styles.muted} title={saveError ?? undefined}>
            {SAVE_TEXT[saveStatus]}
          </span>
        ) : null}
      </span>
      {conversation ? <FollowIndicator conversationId={conversation.id} /> : null}
      <ThemeToggle theme={theme} onToggle={toggleTheme} />
      <button type="button" className={ui.iconButton} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => openDialog("shortcuts")}>
        ?
      </button>
    </header>
  );
}
