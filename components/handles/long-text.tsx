"use client";

import { useEffect, useState } from "react";
import { SafeText } from "@/components/ui/safe-text";
import styles from "./handles.module.css";

const LIMIT = 20_000;

/**
 * Preformatted text cut at 20,000 characters, with a button for the rest (offloaded content can be megabytes);
 * bidi controls and other invisible characters are drawn as their code points (BD-9).
 */
export function LongText({ text, label }: { text: string; label: string }) {
  const [full, setFull] = useState(false);
  const cut = !full && text.length > LIMIT;
  return (
    <div>
      <pre className={styles.code} aria-label={label}>
        <SafeText text={cut ? `${text.slice(0, LIMIT)}…` : text} />
      </pre>
      {text.length > LIMIT ? (
        <button type="button" className={styles.linkButton} onClick={() => setFull(!full)}>
          {full ? "Show less" : `Show all ${text.length.toLocaleString("en")} characters`}
        </button>
      ) : null}
    </div>
  );
}

/** Copies `text` and says whether it worked. */
export function CopyButton({ text, label, copyText }: { text: string; label: string; copyText(text: string): Promise<void> }) {
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (status === "idle") return;
    const timer = setTimeout(() => setStatus("idle"), 2_000);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <span className={styles.copy}>
      <button
        type="button"
        onClick={() =>
          copyText(text).then(
            () => setStatus("copied"),
            () => setStatus("failed"),
          )
        }
      >
        {label}
      </button>
      <span role="status" className={styles.copyStatus}>
        {status === "copied" ? "Copied" : status === "failed" ? "Copy failed" : ""}
      </span>
    </span>
  );
}
