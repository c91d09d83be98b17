"use client";

import { createColumnHelper, flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from "@tanstack/react-table";
import { useState } from "react";
import { approximately, formatNumber } from "@/components/pipeline/format";
import type { CompareRow } from "./compare-format";
import ui from "@/components/ui/ui.module.css";
import styles from "./compare.module.css";

const column = createColumnHelper<CompareRow>();
const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 });
const dollars = new Intl.NumberFormat("en", { style: "currency", currency: "USD", minimumFractionDigits: 4, maximumFractionDigits: 4 });

/** `$0.1234`, or "no prices". */
export function formatDollars(value: number | null): string {
  return value === null ? "no prices" : dollars.format(value);
}

const NUMERIC = new Set(["inputTokens", "ratio", "cost", "cacheHitShare", "cacheBreaks", "budgetStops", "risks"]);
const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

export interface CompareTableProps {
  rows: readonly CompareRow[];
  /** The run whose recall-risk evidence is listed. */
  riskRun: string | null;
  onShowRisks: (id: string) => void;
}

/** Each run's totals against raw; sortable; the cheapest run marked. */
export function CompareTable({ rows, riskRun, onShowRisks }: CompareTableProps) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const columns = [
    column.accessor("label", {
      header: "Policy",
      cell: (info) => (
        <>
          {info.getValue()}
          {info.row.original.cheapest ? <span className={styles.badge}>cheapest</span> : null}
        </>
      ),
    }),
    column.accessor("inputTokens", {
      header: "Input tokens",
      cell: (info) => `${approximately(info.row.original.approximate)}${formatNumber(info.getValue())}`,
    }),
    column.accessor("ratio", { header: "vs raw", cell: (info) => percent.format(info.getValue()) }),
    column.accessor("cost", { header: "Cost", cell: (info) => formatDollars(info.getValue()), sortUndefined: "last" }),
    column.accessor("cacheHitShare", { header: "Cache hits", cell: (info) => percent.format(info.getValue()) }),
    column.accessor("cacheBreaks", {
      header: "Cache breaks",
      cell: (info) => (
        <span title="Calls whose request rewrote what the cache held: what follows the change is paid again">{formatNumber(info.getValue())}</span>
      ),
    }),
    column.accessor("budgetStops", { header: "Budget stops", cell: (info) => formatNumber(info.getValue()) }),
    column.accessor("risks", {
      header: "Recall risks",
      cell: (info) =>
        info.getValue() === 0 ? (
          "0"
        ) : (
          <button
            type="button"
            className={styles.link}
            aria-pressed={riskRun === info.row.original.id}
            onClick={() => onShowRisks(info.row.original.id)}
            aria-label={`${info.getValue()} recall risks of ${info.row.original.label}: show the evidence`}
          >
            {formatNumber(info.getValue())}
          </button>
        ),
    }),
  ];
  const table = useReactTable({
    data: rows as CompareRow[],
    columns,
    state: { sorting },
    getRowId: (row) => row.id,
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  return (
    <div className={ui.tableScroller}>
      <table className={`${styles.table} ${ui.stickyFirst}`} aria-label="Comparison totals">
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const sorted = header.column.getIsSorted();
                return (
                  <th key={header.id} scope="col" aria-sort={sorted ? ARIA_SORT[sorted] : undefined} data-numeric={NUMERIC.has(header.column.id) || undefined}>
                    <button type="button" className={styles.sort} onClick={header.column.getToggleSortingHandler()}>
                      {flexRender(header.column.columnDef.header, header.getContext())}
                      {sorted === "asc" ? " ↑" : sorted === "desc" ? " ↓" : ""}
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id} data-cheapest={row.original.cheapest || undefined}>
              {row.getVisibleCells().map((cell, index) =>
                index === 0 ? (
                  <th key={cell.id} scope="row">
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </th>
                ) : (
                  <td key={cell.id} data-numeric={NUMERIC.has(cell.column.id) || undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
