"use client";

import type { ColumnDef, FilterFn } from "@tanstack/react-table";
import { checkpointName, checkpointTokens, formatNumber, formatShortTime, formatTime, type CheckpointOrigin, type CheckpointRow } from "./checkpoint-format";
import styles from "./checkpoints.module.css";

const byOrigin: FilterFn<CheckpointRow> = (row, _columnId, value: CheckpointOrigin | undefined) =>
  value === undefined || (value === "inherited") === row.original.inherited;
const byBranch: FilterFn<CheckpointRow> = (row, _columnId, value: string | undefined) => value === undefined || row.original.branchId === value;

/** Columns whose cells are right-aligned counts. */
export const NUMERIC_COLUMNS: ReadonlySet<string> = new Set(["version", "tokens", "messages"]);

/** The checkpoint table's columns: selection, branch, version, time, tokens, messages, own/inherited. */
export function checkpointColumns(onOpen: (checkpoint: CheckpointRow) => void): ColumnDef<CheckpointRow>[] {
  return [
    {
      id: "select",
      enableSorting: false,
      header: () => <span className={styles.visuallyHidden}>Select</span>,
      cell: ({ row }) => (
        <input
          type="checkbox"
          checked={row.getIsSelected()}
          disabled={!row.getCanSelect()}
          onChange={row.getToggleSelectedHandler()}
          aria-label={`Select ${checkpointName(row.original)} for diff`}
        />
      ),
    },
    { id: "branch", accessorKey: "branchName", header: "Branch", filterFn: byBranch },
    {
      id: "version",
      accessorKey: "version",
      header: "Version",
      cell: ({ row }) => (
        <button type="button" className={styles.open} onClick={() => onOpen(row.original)} aria-label={`Open checkpoint ${checkpointName(row.original)}`}>
          v{row.original.version}
        </button>
      ),
    },
    {
      id: "createdAt",
      accessorKey: "createdAt",
      header: "Created",
      cell: ({ row }) => (
        <time dateTime={row.original.createdAt} title={formatTime(row.original.createdAt)}>
          {formatShortTime(row.original.createdAt)}
        </time>
      ),
    },
    {
      id: "tokens",
      accessorFn: (row) => checkpointTokens(row) ?? -1,
      header: "Tokens",
      cell: ({ row }) => {
        const tokens = checkpointTokens(row.original);
        return tokens === null ? "—" : formatNumber(tokens);
      },
    },
    { id: "messages", accessorKey: "messageCount", header: "Messages", cell: ({ row }) => formatNumber(row.original.messageCount) },
    {
      id: "origin",
      accessorFn: (row): CheckpointOrigin => (row.inherited ? "inherited" : "own"),
      header: "Origin",
      filterFn: byOrigin,
      cell: ({ row }) => (
        <span className={styles.origin} data-origin={row.original.inherited ? "inherited" : "own"}>
          {row.original.inherited ? "inherited" : "own"}
        </span>
      ),
    },
  ];
}
