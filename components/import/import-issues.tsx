"use client";

import { useEffect, useRef } from "react";
// The module, not the entry: the page must not load the parsers (and zod) for one formatter.
import { formatImportIssue, type ImportIssue } from "@/lib/import/errors";
import styles from "./import.module.css";

export interface ImportFailure {
  message: string;
  issues: readonly ImportIssue[];
}

/** An import's errors, each pointing at its line, message and field; issues with a line jump to it in the text. */
export function ImportIssues({ failure, onJump }: { failure: ImportFailure; onJump?: (line: number, column?: number) => void }) {
  const alert = useRef<HTMLDivElement>(null);
  // A refusal comes seconds after the click, maybe with the page scrolled: it is brought into view.
  useEffect(() => {
    if (failure) alert.current?.scrollIntoView?.({ block: "nearest" });
  }, [failure]);
  return (
    <div ref={alert} role="alert" aria-label="Import error" className={styles.error}>
      <p>
        {failure.issues.length > 0
          ? `The conversation could not be imported (${failure.issues.length} problem${failure.issues.length === 1 ? "" : "s"}); the text is kept as pasted:`
          : failure.message}
      </p>
      {failure.issues.length > 0 ? (
        <ul>
          {failure.issues.map((issue, index) => (
            <li key={index}>
              {issue.line !== undefined && onJump ? (
                <button
                  type="button"
                  className={styles.jump}
                  onClick={() => onJump(issue.line!, issue.column)}
                  aria-label={`Show line ${issue.line} in the text`}
                >
                  ↪
                </button>
              ) : null}
              <code>{formatImportIssue(issue)}</code>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
