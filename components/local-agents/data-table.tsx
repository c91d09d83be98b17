"use client";

import { flexRender, getCoreRowModel, getFilteredRowModel, getSortedRowModel, useReactTable, type FilterFn, type SortingState } from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { LOCAL_AGENT_LABELS, type LocalSessionEntry } from "@/lib/local-agents/types";
import { NUMERIC_COLUMNS, sessionColumns, type SessionActions } from "./columns";
import styles from "./local-agents.module.css";

export interface SessionTableProps extends SessionActions {
  sessions: readonly LocalSessionEntry[];
}

const textFilter: FilterFn<LocalSessionEntry> = (row, _columnId, value: string) => {
  const session = row.original;
  const text = `${LOCAL_AGENT_LABELS[session.agent]} ${session.project} ${session.model ?? ""} ${session.path}`.toLowerCase();
  return text.includes(value.trim().toLowerCase());
};

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** The sessions on this machine as a sortable, filterable TanStack table. */
export function SessionTable({ sessions, busyPath, onImport, onFollow }: SessionTableProps) {
  const [sorting, setSorting] = useState<SortingState>([{ id: "modifiedAt", desc: true }]);
  const [globalFilter, setGlobalFilter] = useState("");
  const columns = useMemo(() => sessionColumns({ busyPath, onImport, onFollow }), [busyPath, onImport, onFollow]);
  const table = useReactTable({
    data: sessions as LocalSessionEntry[],
    columns,
    state: { sorting, globalFilter },
    getRowId: (row) => row.path,
    onSortingChange: setSorting,
    onGlobalFilterChange: setGlobalFilter,
    globalFilterFn: textFilter,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const visible = table.getRowModel().rows;
  return (
    <>
      <div className={styles.toolbar}>
        <input
          type="search"
          className={styles.search}
          aria-label="Find a session"
          placeholder="Find by agent, project, model or file"
          value={globalFilter}
          onChange={(event) => setGlobalFilter(event.target.value)}
        />
        <span className={styles.muted}>
          {visible.length === sessions.length ? `${sessions.length} sessions` : `${visible.length} of ${sessions.length} sessions`}
        </span>
      </div>
      <div className={styles.scroller}>
        <table className={styles.table} aria-label="Sessions on this machine">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted ? ARIA_SORT[sorted] : undefined}
                      data-numeric={NUMERIC_COLUMNS.has(header.id) || undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button type="button" className={styles.sort} onClick={header.column.getToggleSortingHandler()}>
                          {label}
                          <span aria-hidden="true">{sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}</span>
                        </button>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {visible.map((row) => (
              <tr key={row.id} data-live={row.original.live || undefined}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} data-numeric={NUMERIC_COLUMNS.has(cell.column.id) || undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {visible.length === 0 ? <p className={styles.muted}>No session matches “{globalFilter}”.</p> : null}
      </div>
    </>
  );
}
