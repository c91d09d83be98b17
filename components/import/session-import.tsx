"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ApiError, apiClient } from "@/lib/client";
import styles from "./import.module.css";

/** Imports a session file (a conversation with its branches, memory, proxy calls and policies) and opens it. */
export function SessionImport() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; issues: string[] } | null>(null);

  async function importFile(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    try {
      const { conversationId } = await apiClient.importSession(await file.text());
      router.push(`/c/${encodeURIComponent(conversationId)}`);
      router.refresh();
    } catch (error) {
      setBusy(false);
      const issues = ApiError.isInstance(error)
        ? error.issues.map((issue) => `${issue.path}${issue.line ? ` (line ${issue.line})` : ""}: ${issue.message}`)
        : [];
      setFailure({ message: error instanceof Error ? error.message : String(error), issues });
    }
  }

  return (
    <div className={styles.hint}>
      <label className={styles.fileLabel}>
        {busy ? "Importing the session…" : "Import a session file"}
        <input
          type="file"
          accept=".json,application/json"
          className={styles.fileInput}
          disabled={busy}
          onChange={(event) => void importFile(event.target.files?.[0])}
          aria-label="Import a session file"
        />
      </label>
      {failure ? (
        <div role="alert" className={styles.error}>
          <p>{failure.message}</p>
          {failure.issues.length > 0 ? (
            <ul>
              {failure.issues.slice(0, 10).map((issue) => (
                <li key={issue}>
                  <code>{issue}</code>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
