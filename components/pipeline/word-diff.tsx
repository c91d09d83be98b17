"use client";

import { useMemo, useState } from "react";
import { diffWordsWithSpace } from "diff";
import { formatNumber } from "./format";
import styles from "./step-diff.module.css";

/** Word diffs give up past this many edits (then both texts are shown whole): keeps a 50k-character rewrite from stalling the page. */
const MAX_EDIT_LENGTH = 2_000;
/** Unchanged stretches longer than this are shortened to their ends. */
const KEEP_UNCHANGED = 400;
const UNCHANGED_END = 160;

/** The word-level difference of two contents: removed words struck, added words marked, long unchanged stretches shortened. */
export function WordDiff({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT_LENGTH, timeout: 200 }), [before, after]);
  if (!parts) {
    return (
      <div className={styles.wholeDiff}>
        <p className={styles.note}>Too different for a word diff: the old and new content in full.</p>
        <ContentPreview text={before} variant="removed" />
        <ContentPreview text={after} variant="added" />
      </div>
    );
  }
  return (
    <pre className={styles.content}>
      {parts.map((part, index) => {
        if (part.added) return <ins key={index}>{part.value}</ins>;
        if (part.removed) return <del key={index}>{part.value}</del>;
        if (part.value.length <= KEEP_UNCHANGED) return <span key={index}>{part.value}</span>;
        return (
          <span key={index}>
            {part.value.slice(0, UNCHANGED_END)}
            <span className={styles.elided}>{` … ${formatNumber(part.value.length - 2 * UNCHANGED_END)} unchanged characters … `}</span>
            {part.value.slice(-UNCHANGED_END)}
          </span>
        );
      })}
    </pre>
  );
}

const PREVIEW = 1_200;

/** A message's content, cut at 1,200 characters with a button for the rest. */
export function ContentPreview({ text, variant }: { text: string; variant?: "removed" | "added" }) {
  const [full, setFull] = useState(false);
  if (text === "") return <p className={styles.note}>(no content)</p>;
  const cut = !full && text.length > PREVIEW;
  const shown = cut ? text.slice(0, PREVIEW) : text;
  return (
    <div>
      <pre className={styles.content} data-variant={variant}>
        {variant === "removed" ? <del>{shown}</del> : variant === "added" ? <ins>{shown}</ins> : shown}
        {cut ? "…" : null}
      </pre>
      {text.length > PREVIEW ? (
        <button type="button" className={styles.linkButton} onClick={() => setFull(!full)}>
          {full ? "Show less" : `Show all ${formatNumber(text.length)} characters`}
        </button>
      ) : null}
    </div>
  );
}
