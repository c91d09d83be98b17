"use client";

import type { ModelEntry } from "@/lib/models";
import ui from "@/components/ui/ui.module.css";
import styles from "./models.module.css";

export interface ModelTableProps {
  models: readonly ModelEntry[];
  /** Ids of built-in models, so a user's entry with one of them can be reset instead of deleted. */
  builtIn: ReadonlySet<string>;
  busy?: boolean;
  onEdit(entry: ModelEntry): void;
  onRemove(entry: ModelEntry): void;
}

const number = (value: number) => value.toLocaleString("en");
const price = (value: number | undefined) => (value === undefined ? "—" : `$${value}`);

/** The catalogue, one row a model: window, output limit, how it is counted, prices, and where the figures came from. */
export function ModelTable({ models, builtIn, busy, onEdit, onRemove }: ModelTableProps) {
  return (
    <table className={styles.table} aria-label="Model catalogue">
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col">Provider</th>
          <th scope="col" className={styles.numeric}>
            Window
          </th>
          <th scope="col" className={styles.numeric}>
            Max output
          </th>
          <th scope="col">Counted with</th>
          <th scope="col" className={styles.numeric}>
            Input
          </th>
          <th scope="col" className={styles.numeric}>
            Output
          </th>
          <th scope="col" className={styles.numeric}>
            Cached
          </th>
          <th scope="col" className={styles.numeric}>
            Cache write
          </th>
          <th scope="col">Figures</th>
          <th scope="col">
            <span className={styles.hidden}>Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {models.map((entry) => (
          <tr key={entry.id} data-origin={entry.origin}>
            <th scope="row">
              <code>{entry.id}</code>
              <span className={styles.label}>{entry.label}</span>
            </th>
            <td>{entry.provider}</td>
            <td className={styles.numeric}>{number(entry.contextWindow)}</td>
            <td className={styles.numeric}>{number(entry.maxOutputTokens)}</td>
            <td title={entry.tokenizer.note}>
              {entry.tokenizer.encoding}
              {entry.tokenizer.exact ? "" : " (approximate)"}
            </td>
            <td className={styles.numeric}>{price(entry.prices?.input)}</td>
            <td className={styles.numeric}>{price(entry.prices?.output)}</td>
            <td className={styles.numeric}>{price(entry.prices?.cachedInput)}</td>
            <td className={styles.numeric}>{price(entry.prices?.cacheWrite)}</td>
            <td>{entry.origin === "custom" ? `edited ${entry.takenAt}` : `published, ${entry.takenAt}`}</td>
            <td className={styles.rowActions}>
              <button type="button" className={ui.button} disabled={busy} onClick={() => onEdit(entry)} aria-label={`Edit ${entry.id}`}>
                Edit
              </button>
              {entry.origin === "custom" ? (
                <button
                  type="button"
                  className={ui.button}
                  data-variant="danger"
                  disabled={busy}
                  onClick={() => onRemove(entry)}
                  aria-label={`${builtIn.has(entry.id) ? "Reset" : "Delete"} ${entry.id}`}
                >
                  {builtIn.has(entry.id) ? "Reset" : "Delete"}
                </button>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
