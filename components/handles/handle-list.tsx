"use client";

import { Fragment, type ReactNode } from "react";
import ui from "@/components/ui/ui.module.css";
import { entryKey, SOURCE_LABELS, type HandleEntry, type HandleSortKey, type SortDirection } from "./handle-entries";
import styles from "./handles.module.css";

const number = (value: number | undefined) => (value === undefined ? "—" : value.toLocaleString("en"));

const COLUMNS: readonly { key: HandleSortKey; label: string; numeric?: boolean }[] = [
  { key: "handle", label: "Handle" },
  { key: "origin", label: "Origin", numeric: true },
  { key: "characters", label: "Characters", numeric: true },
  { key: "tokens", label: "Tokens", numeric: true },
  { key: "source", label: "Source" },
];

export interface HandleListProps {
  /** Already sorted (`sortHandles`). */
  entries: readonly HandleEntry[];
  sort: { key: HandleSortKey; direction: SortDirection };
  onSort(key: HandleSortKey): void;
  /** `entryKey` of the open entry. */
  selected?: string;
  onOpen(entry: HandleEntry): void;
  /** The open entry's detail, shown right under its row (UI-G5). */
  detail?: ReactNode;
}

/** The handles as a table with sortable columns; each handle is a button that opens it. */
export function HandleList({ entries, sort, onSort, selected, onOpen, detail }: HandleListProps) {
  return (
    <div className={`${ui.tableScroller} ${styles.scroller}`}>
      <table className={`${styles.table} ${ui.stickyFirst}`} aria-label="Offloaded handles">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column.key} scope="col" aria-sort={sort.key === column.key ? sort.direction : "none"} data-numeric={column.numeric || undefined}>
                <button type="button" className={styles.sortButton} onClick={() => onSort(column.key)}>
                  {column.label}
                  <span aria-hidden="true" className={styles.sortMark}>
                    {sort.key === column.key ? (sort.direction === "ascending" ? "▲" : "▼") : ""}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const key = entryKey(entry);
            return (
              <Fragment key={key}>
                <tr data-selected={selected === key || undefined} data-source={entry.source}>
                  <th scope="row">
                    <button type="button" className={styles.handleButton} aria-pressed={selected === key} onClick={() => onOpen(entry)}>
                      {entry.handle}
                    </button>
                  </th>
                  <td data-numeric="">{entry.origin >= 0 ? `#${entry.origin}` : "—"}</td>
                  <td data-numeric="">{number(entry.characters)}</td>
                  <td data-numeric="">{number(entry.tokens)}</td>
                  <td className={styles.source}>{SOURCE_LABELS[entry.source]}</td>
                </tr>
                {selected === key && detail ? (
                  <tr className={styles.detailRow}>
                    <td colSpan={COLUMNS.length}>{detail}</td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
