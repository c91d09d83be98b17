import type { DiffEntry } from "./message-diff";

/** A line of the step diff: one entry, or a folded run of entries (`entries[from .. from + count)`). */
export type DiffRow = { type: "entry"; index: number } | { type: "folded"; kind: "unchanged" | "removed"; from: number; count: number };

export interface DiffRowsOptions {
  /** Unchanged messages shown on each side of a change (default 1). */
  context?: number;
  /** Runs of removed messages longer than this show their first `context + 2` and fold the rest (default 20). */
  removedRun?: number;
  /** `from` of the folded runs the user opened. */
  expanded?: ReadonlySet<number>;
}

/** Folds long unchanged runs ("… 4,812 unchanged messages …") and long removed runs, so a 10k-message diff stays a few rows. */
export function buildDiffRows(entries: readonly DiffEntry[], options: DiffRowsOptions = {}): DiffRow[] {
  const context = options.context ?? 1;
  const removedRun = options.removedRun ?? 20;
  const expanded = options.expanded ?? new Set<number>();
  const near = new Uint8Array(entries.length);
  entries.forEach((entry, index) => {
    if (entry.type === "unchanged") return;
    for (let offset = Math.max(0, index - context); offset <= Math.min(entries.length - 1, index + context); offset += 1) near[offset] = 1;
  });

  const rows: DiffRow[] = [];
  let index = 0;
  while (index < entries.length) {
    const type = entries[index].type;
    let end = index;
    while (end < entries.length && entries[end].type === type) end += 1;
    if (type === "unchanged") foldUnchanged(index, end);
    else if (type === "removed" && end - index > removedRun && !expanded.has(index + context + 2)) {
      for (let shown = index; shown < index + context + 2; shown += 1) rows.push({ type: "entry", index: shown });
      rows.push({ type: "folded", kind: "removed", from: index + context + 2, count: end - index - context - 2 });
    } else for (let shown = index; shown < end; shown += 1) rows.push({ type: "entry", index: shown });
    index = end;
  }
  return rows;

  function foldUnchanged(start: number, end: number) {
    let cursor = start;
    while (cursor < end) {
      if (near[cursor]) {
        rows.push({ type: "entry", index: cursor });
        cursor += 1;
        continue;
      }
      let hiddenEnd = cursor;
      while (hiddenEnd < end && !near[hiddenEnd]) hiddenEnd += 1;
      const count = hiddenEnd - cursor;
      if (count === 1 || expanded.has(cursor)) for (let shown = cursor; shown < hiddenEnd; shown += 1) rows.push({ type: "entry", index: shown });
      else rows.push({ type: "folded", kind: "unchanged", from: cursor, count });
      cursor = hiddenEnd;
    }
  }
}
