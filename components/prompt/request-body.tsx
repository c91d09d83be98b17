"use client";

import { useMemo, useState } from "react";
import { viewBody, type RequestView } from "@/lib/request";
import { downloadText } from "@/components/ui/download";
import { SafeText } from "@/components/ui/safe-text";
import ui from "@/components/ui/ui.module.css";
import styles from "./prompt-preview.module.css";

export interface RequestBodyProps {
  view: Pick<RequestView, "model" | "maxTokens" | "messages" | "tools">;
}

/** The exact JSON body the next call sends (OpenAI Chat Completions), to read, copy or download; shown with invisible characters drawn (BD-9), copied as it is. */
export function RequestBody({ view }: RequestBodyProps) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const text = useMemo(() => JSON.stringify(viewBody(view), null, 2), [view]);
  const bytes = useMemo(() => new TextEncoder().encode(text).length, [text]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <section className={styles.body} aria-label="Request body">
      <div className={styles.row}>
        <button type="button" className={styles.sectionToggle} aria-expanded={open} onClick={() => setOpen(!open)}>
          Request body (JSON, {bytes.toLocaleString("en")} bytes)
        </button>
        <button type="button" className={ui.button} onClick={() => void copy()}>
          {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
        </button>
        <button type="button" className={ui.button} onClick={() => downloadText(text, "request.json")}>
          Download
        </button>
      </div>
      {open ? (
        <pre className={styles.json} aria-label="Request body JSON">
          <SafeText text={text} />
        </pre>
      ) : null}
    </section>
  );
}
