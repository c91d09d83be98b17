"use client";

import { useMemo, useState } from "react";
import type { Message } from "@/lib/context/light";
import { buildDiffRows } from "@/components/pipeline/diff-rows";
import { formatNumber, plural } from "@/components/pipeline/format";
import { diffMessages } from "@/components/pipeline/message-diff";
import { StepDiffRow } from "@/components/pipeline/step-diff-row";
import diffStyles from "@/components/pipeline/step-diff.module.css";

export interface CallDiffProps {
  /** What the previous call forwarded. */
  before: readonly Message[];
  /** What this call forwarded. */
  after: readonly Message[];
  /** "call 3", for the headings. */
  beforeName: string;
  afterName: string;
}

/** What a call sent against the call before it: messages removed, added and replaced (word-diffed), unchanged runs folded. */
export function CallDiff({ before, after, beforeName, afterName }: CallDiffProps) {
  const diff = useMemo(() => diffMessages(before, after), [before, after]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const rows = useMemo(() => buildDiffRows(diff.entries, { expanded }), [diff, expanded]);
  const { counts } = diff;
  const changed = counts.removed + counts.added + counts.replaced;
  return (
    <section className={diffStyles.diff} aria-label={`Changes from ${beforeName} to ${afterName}`}>
      <p className={diffStyles.counts} aria-label="Diff summary">
        <span data-type="removed">{formatNumber(counts.removed)} removed</span>
        <span data-type="added">{formatNumber(counts.added)} added</span>
        <span data-type="replaced">{formatNumber(counts.replaced)} changed</span>
        <span data-type="unchanged">{formatNumber(counts.unchanged)} unchanged</span>
        <span className={diffStyles.totals}>
          {plural(before.length, "message")} → {formatNumber(after.length)}
        </span>
      </p>
      {changed === 0 ? <p className={diffStyles.note}>It sent the same messages as {beforeName}.</p> : null}
      <ol className={diffStyles.rows} aria-label="Changed messages">
        {rows.map((row) =>
          row.type === "entry" ? (
            <StepDiffRow key={`e${row.index}`} entry={diff.entries[row.index]} before={before} after={after} />
          ) : (
            <li key={`f${row.from}`} className={diffStyles.folded} data-kind={row.kind}>
              <span>
                … {formatNumber(row.count)} {row.kind} {row.count === 1 ? "message" : "messages"} …
              </span>
              <button type="button" className={diffStyles.linkButton} onClick={() => setExpanded(new Set(expanded).add(row.from))}>
                Show {formatNumber(row.count)} {row.kind}
              </button>
            </li>
          ),
        )}
      </ol>
    </section>
  );
}
