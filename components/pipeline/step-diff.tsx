"use client";

import { useMemo, useState } from "react";
import type { Message, MessageEffect } from "@/lib/context/light";
import { buildDiffRows, type DiffRow } from "./diff-rows";
import { formatNumber, plural } from "./format";
import { diffMessages } from "./message-diff";
import { StepDiffRow } from "./step-diff-row";
import styles from "./step-diff.module.css";

export interface StepDiffProps {
  /** The history the processor received (`PipelineClient.stepHistories(step).before`). */
  before: readonly Message[];
  /** The history it returned (`.after`). */
  after: readonly Message[];
  /** The processor's name, for the heading. */
  processor?: string;
  /** `StepSummary.effects` of the step: names what happened to each message and pairs one-for-one replacements. */
  effects?: readonly MessageEffect[];
  /** Rows per page (default 100). */
  pageSize?: number;
  /** Unchanged messages shown around each change (default 1). */
  context?: number;
  /** What to say when nothing changed (default: the processor left the history unchanged). */
  unchangedText?: string;
}

/** What one processor did to the history: counts, then messages removed, added and replaced (word-diffed), unchanged runs folded, paged. */
export function StepDiff({
  before,
  after,
  processor,
  effects,
  pageSize = 100,
  context = 1,
  unchangedText = "This processor left the history unchanged.",
}: StepDiffProps) {
  const diff = useMemo(() => diffMessages(before, after, effects), [before, after, effects]);
  const [view, setView] = useState({ diff, page: 0, expanded: new Set<number>() });
  // A new step or run starts at the first page with every run folded again.
  const current = view.diff === diff ? view : { diff, page: 0, expanded: new Set<number>() };
  if (current !== view) setView(current);
  const rows = useMemo(() => buildDiffRows(diff.entries, { context, expanded: current.expanded }), [diff, context, current.expanded]);
  const pages = Math.max(1, Math.ceil(rows.length / pageSize));
  const page = Math.min(current.page, pages - 1);
  const visible = rows.slice(page * pageSize, (page + 1) * pageSize);
  const { counts } = diff;
  const changed = counts.removed + counts.added + counts.replaced;

  const expand = (row: Extract<DiffRow, { type: "folded" }>) => setView({ ...current, expanded: new Set(current.expanded).add(row.from) });
  const goTo = (next: number) => setView({ ...current, page: next });

  return (
    <section className={styles.diff} aria-label={processor ? `Changes made by ${processor}` : "Step diff"}>
      <header className={styles.summary}>
        <h3 className={styles.title}>{processor ? <code>{processor}</code> : "Step"}</h3>
        <p className={styles.counts} aria-label="Diff summary">
          <span data-type="removed">{formatNumber(counts.removed)} removed</span>
          <span data-type="added">{formatNumber(counts.added)} added</span>
          <span data-type="replaced">{formatNumber(counts.replaced)} replaced</span>
          <span data-type="unchanged">{formatNumber(counts.unchanged)} unchanged</span>
          <span className={styles.totals}>
            {plural(before.length, "message")} → {formatNumber(after.length)}
          </span>
        </p>
      </header>
      {changed === 0 ? <p className={styles.note}>{unchangedText}</p> : null}
      <ol className={styles.rows} aria-label="Changed messages">
        {visible.map((row) =>
          row.type === "entry" ? (
            <StepDiffRow key={`e${row.index}`} entry={diff.entries[row.index]} before={before} after={after} />
          ) : (
            <li key={`f${row.from}`} className={styles.folded} data-kind={row.kind}>
              <span>
                … {formatNumber(row.count)} {row.kind} {row.count === 1 ? "message" : "messages"} …
              </span>
              <button type="button" className={styles.linkButton} onClick={() => expand(row)}>
                Show {formatNumber(row.count)} {row.kind}
              </button>
            </li>
          ),
        )}
      </ol>
      {pages > 1 ? (
        <nav className={styles.pager} aria-label="Diff pages">
          <button type="button" onClick={() => goTo(page - 1)} disabled={page === 0}>
            Previous page
          </button>
          <span>
            Rows {formatNumber(page * pageSize + 1)}–{formatNumber(Math.min(rows.length, (page + 1) * pageSize))} of {formatNumber(rows.length)}
          </span>
          <button type="button" onClick={() => goTo(page + 1)} disabled={page >= pages - 1}>
            Next page
          </button>
        </nav>
      ) : null}
    </section>
  );
}
