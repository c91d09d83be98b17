"use client";

import { forwardRef, useImperativeHandle, useRef, useState, type ReactNode } from "react";
import type { UploadProgress } from "@/lib/client/upload";
import { ImportIssues, type ImportFailure } from "./import-issues";
import { offsetTop } from "./line-top";
import { formatSize, UploadStatus } from "./upload-status";
import styles from "./import.module.css";

/** Files larger than this are not read into the page (nor shown in the box): they are sent as they are. */
export const LARGE_FILE_BYTES = 512 * 1024;

export interface ImportBoxHandle {
  /** Selects line `line` (1-based) of the text and scrolls it into view. */
  showLine(line: number, column?: number): void;
}

export interface ImportBoxProps {
  text: string;
  onTextChange: (text: string) => void;
  /** A file was dropped or picked; its text replaces the box's. */
  onFile: (text: string, filename: string) => void;
  /** Several files were dropped or picked at once (a session and its subagents' files): imported together. */
  onFiles?: (files: { text: string; filename: string }[]) => void;
  /** One file over LARGE_FILE_BYTES was dropped or picked: handed over unread, so the page never holds its text. */
  onLargeFile?: (file: File) => void;
  /** The large file waiting to be imported, shown instead of the text. */
  largeFile?: File;
  /** An upload under way. */
  progress?: UploadProgress;
  filename?: string;
  failure?: ImportFailure;
  /** The buttons under the box. */
  children?: ReactNode;
}

/** Offset of the start of 1-based line `line` in `text`. */
export function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/** Paste or drop a conversation in any import format (the detection registry of lib/import names the one it recognised). */
export const ImportBox = forwardRef<ImportBoxHandle, ImportBoxProps>(function ImportBox(
  { text, onTextChange, onFile, onFiles, onLargeFile, largeFile, progress, filename, failure, children },
  ref,
) {
  const area = useRef<HTMLTextAreaElement>(null);
  const [dragging, setDragging] = useState(false);

  const showLine = (line: number, column?: number) => {
    const element = area.current;
    if (!element) return;
    const start = lineOffset(text, line) + Math.max(0, (column ?? 1) - 1);
    const end = text.indexOf("\n", start);
    element.focus();
    element.setSelectionRange(start, end < 0 ? text.length : end);
    // Two lines of context above the line, counted as laid out (wrapped lines take several).
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || 18;
    element.scrollTop = Math.max(0, offsetTop(element, lineOffset(text, line)) - 2 * lineHeight);
  };
  useImperativeHandle(ref, () => ({ showLine }));

  const readFiles = async (files: FileList | null | undefined) => {
    if (!files || files.length === 0) return;
    if (files.length > 1 && onFiles) {
      onFiles(await Promise.all([...files].map(async (file) => ({ text: await file.text(), filename: file.name }))));
      return;
    }
    if (onLargeFile && files[0].size > LARGE_FILE_BYTES) onLargeFile(files[0]);
    else onFile(await files[0].text(), files[0].name);
  };

  return (
    <div
      className={styles.box}
      data-dragging={dragging || undefined}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        setDragging(false);
        void readFiles(event.dataTransfer.files);
      }}
    >
      <div className={styles.boxHeader}>
        <label htmlFor="conversation-text">
          Conversation (chat messages, agent sessions, transcripts or traces: OpenAI, Anthropic, Gemini, Claude Code, Codex, Gemini CLI, Cline, OpenHands,
          SWE-agent, Letta, Pydantic AI, AI SDK, LangChain, ShareGPT, LiteLLM, Langfuse, Helicone, MCP, OpenTelemetry, tau-bench; several files at once for a
          session and its subagents)
        </label>
        <span className={styles.hint}>
          {filename ? <span className={styles.filename}>{filename} · </span> : null}
          paste, drop a file, or{" "}
          <label className={styles.fileLabel}>
            open one
            <input
              type="file"
              accept=".json,.jsonl,.txt,application/json"
              className={styles.fileInput}
              multiple={onFiles !== undefined}
              onChange={(event) => void readFiles(event.target.files)}
              aria-label="Open a conversation file"
            />
          </label>
        </span>
      </div>
      {/* The user looks at the top of the box when an import is refused or under way: both show there. */}
      {failure ? <ImportIssues failure={failure} onJump={largeFile ? undefined : showLine} /> : null}
      {progress ? <UploadStatus progress={progress} /> : null}
      {largeFile ? (
        <p className={styles.largeFile}>
          <span className={styles.filename}>{largeFile.name}</span> ({formatSize(largeFile.size)}) is ready. It is too large to show here: it is sent as it is.
        </p>
      ) : (
        <textarea
          ref={area}
          id="conversation-text"
          className={styles.textarea}
          value={text}
          onChange={(event) => onTextChange(event.target.value)}
          rows={12}
          spellCheck={false}
          placeholder='[{"role": "system", "content": "..."}, {"role": "user", "content": "..."}]'
          aria-invalid={failure ? true : undefined}
        />
      )}
      {dragging ? (
        <div className={styles.dropHint} aria-hidden>
          Drop to load the file
        </div>
      ) : null}
      {children ? <div className={styles.actions}>{children}</div> : null}
    </div>
  );
});
