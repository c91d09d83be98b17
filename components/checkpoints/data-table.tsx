"use client";

import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnFiltersState,
  type FilterFn,
  type RowSelectionState,
  type SortingState,
  type Updater,
} from "@tanstack/react-table";
import { useMemo, useState } from "react";
import { searchableText, type CheckpointRow } from "./checkpoint-format";
import { checkpointColumns, NUMERIC_COLUMNS } from "./columns";
import { CheckpointToolbar } from "./toolbar";
import styles from "./checkpoints.module.css";

export interface CheckpointDataTableProps {
  rows: readonly CheckpointRow[];
  /** Ids of the checkpoints picked for the diff (at most two). */
  selection: readonly string[];
  onSelectionChange: (ids: string[]) => void;
  openId: string | null;
  onOpen: (checkpoint: CheckpointRow) => void;
}

const textFilter: FilterFn<CheckpointRow> = (row, _columnId, value: string) => searchableText(row.original).includes(value.trim().toLowerCase());

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** The checkpoints as a sortable, filterable TanStack table; two rows can be selected for a diff. */
export function CheckpointDataTable({ rows, selection, onSelectionChange, openId, onOpen }: CheckpointDataTableProps) {
  const [sorting, setSorting] = useState<SortingState>([{ id: "createdAt", desc: false }]);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const [globalFilter, setGlobalFilter] = useState("");
  const columns = useMemo(() => checkpointColumns(onOpen), [onOpen]);
  const rowSelection = useMemo<RowSelectionState>(() => Object.fromEntries(selection.map((id) => [id, true])), [selection]);

  const setRowSelection = (updater: Updater<RowSelectionState>) => {
    const next = typeof updater === "function" ? updater(rowSelection) : updater;
    // Keep the pick order, so the diff reads from the first picked to the second.
    const picked = Object.keys(next).filter((id) => next[id]);
    onSelectionChange([...selection.filter((id) => picked.includes(id)), ...picked.filter((id) => !selection.includes(id))]);
  };

  const table = useReactTable({
    data: rows as CheckpointRow[],
    columns,
    state: { sorting, columnFilters, globalFilter, rowSelection },
    getRowId: (row) => row.id,
    onSortingChange: setSorting,
    onColumnFiltersChange: setColumnFilters,
    onGlobalFilterChange: setGlobalFilter,
    onRowSelectionChange: setRowSelection,
    globalFilterFn: textFilter,
    sortDescFirst: false,
    enableRowSelection: (row) => row.getIsSelected() || selection.length < 2,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const visible = table.getRowModel().rows;

  return (
    <div className={styles.tableBlock}>
      <CheckpointToolbar table={table} rows={rows} />
      <div className={styles.scroller}>
        <table className={styles.table} aria-label="Checkpoints">
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
                      data-numeric={NUMERIC_COLUMNS.has(header.column.id) || undefined}
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
              <tr
                key={row.id}
                data-selected={row.getIsSelected() || undefined}
                data-open={row.id === openId || undefined}
                data-origin={row.original.inherited ? "inherited" : "own"}
              >
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} data-numeric={NUMERIC_COLUMNS.has(cell.column.id) || undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {visible.length === 0 ? <p className={styles.noMatch}>No checkpoint matches the filters.</p> : null}
      </div>
    </div>
  );
}
