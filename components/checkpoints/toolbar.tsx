"use client";

import type { Table } from "@tanstack/react-table";
import { useId, useMemo } from "react";
import ui from "@/components/ui/ui.module.css";
import type { CheckpointOrigin, CheckpointRow } from "./checkpoint-format";
import styles from "./checkpoints.module.css";

export interface CheckpointToolbarProps {
  table: Table<CheckpointRow>;
  rows: readonly CheckpointRow[];
}

const ORIGINS: { value: CheckpointOrigin | undefined; label: string }[] = [
  { value: undefined, label: "All" },
  { value: "own", label: "Own" },
  { value: "inherited", label: "Inherited" },
];

/** Filters of the checkpoint table: text, branch, own/inherited; a count of what shows. */
export function CheckpointToolbar({ table, rows }: CheckpointToolbarProps) {
  const radioName = useId();
  const branches = useMemo(() => [...new Map(rows.map((row) => [row.branchId, row.branchName])).entries()], [rows]);
  const branch = table.getColumn("branch");
  const origin = table.getColumn("origin");
  const originValue = origin?.getFilterValue() as CheckpointOrigin | undefined;
  const text = (table.getState().globalFilter as string | undefined) ?? "";
  const filtered = text !== "" || table.getState().columnFilters.length > 0;
  const shown = table.getRowModel().rows.length;

  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Checkpoint filters">
      <input
        type="search"
        className={styles.search}
        placeholder="Filter checkpoints…"
        aria-label="Filter checkpoints"
        value={text}
        onChange={(event) => table.setGlobalFilter(event.target.value)}
      />
      <select
        aria-label="Branch"
        className={styles.select}
        value={(branch?.getFilterValue() as string | undefined) ?? ""}
        onChange={(event) => branch?.setFilterValue(event.target.value === "" ? undefined : event.target.value)}
      >
        <option value="">All branches</option>
        {branches.map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
      <div className={styles.segmented} role="radiogroup" aria-label="Origin">
        {ORIGINS.map((option) => (
          <label key={option.label} data-checked={originValue === option.value || undefined}>
            <input type="radio" name={radioName} checked={originValue === option.value} onChange={() => origin?.setFilterValue(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
      {filtered ? (
        <button
          type="button"
          className={ui.button}
          data-variant="ghost"
          onClick={() => {
            table.resetColumnFilters();
            table.setGlobalFilter("");
          }}
        >
          Reset
        </button>
      ) : null}
      <span className={styles.count} aria-live="polite">
        {shown} of {rows.length}
      </span>
    </div>
  );
}
