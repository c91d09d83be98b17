"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { ApiError, type ImportSessionResult } from "@/lib/client";
import { uploadFile, type UploadProgress } from "@/lib/client/upload";
import styles from "./import.module.css";
import { UploadStatus } from "./upload-status";

/**
 * Imports a session file (a conversation with its branches, memory, proxy calls and policies) and opens it. The
 * file is sent from disk as it is, with its progress shown; a refusal shows above the button, brought into view.
 */
export function SessionImport() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<UploadProgress>();
  const [failure, setFailure] = useState<{ message: string; issues: string[] } | null>(null);
  const alert = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (failure) alert.current?.scrollIntoView?.({ block: "nearest" });
  }, [failure]);

  async function importFile(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    try {
      const { conversationId } = await uploadFile<ImportSessionResult>({ path: "/api/sessions", body: file, onProgress: setProgress });
      router.push(`/c/${encodeURIComponent(conversationId)}`);
      router.refresh();
    } catch (error) {
      setBusy(false);
      setProgress(undefined);
      const issues = ApiError.isInstance(error)
        ? error.issues.map((issue) => `${issue.path}${issue.line ? ` (line ${issue.line})` : ""}: ${issue.message}`)
        : [];
      setFailure({ message: error instanceof Error ? error.message : String(error), issues });
    }
  }

  return (
    <div className={styles.hint}>
      {failure ? (
        <div ref={alert} role="alert" aria-label="Session import error" className={styles.error}>
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
      {progress ? <UploadStatus progress={progress} /> : null}
      <label className={styles.fileLabel}>
        {busy ? "Importing the session…" : "Import a session file"}
        <input
          type="file"
          accept=".jsonl,.json,application/x-ndjson,application/json"
          className={styles.fileInput}
          disabled={busy}
          onChange={(event) => {
            void importFile(event.target.files?.[0]);
            event.target.value = "";
          }}
          aria-label="Import a session file"
        />
      </label>
    </div>
  );
}
