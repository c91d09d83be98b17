"use client";

import { useState } from "react";
import type { JsonValue } from "@/lib/db";
import { joinDiffPath } from "@/lib/api/diff";
import { previewJson } from "./checkpoint-format";
import styles from "./json-tree.module.css";

export interface JsonTreeProps {
  value: JsonValue;
  /** Name of the root, shown and used in accessible names. */
  label: string;
  /** Levels open at first (the root is level 0). */
  expandDepth?: number;
}

function entriesOf(value: JsonValue): [string, JsonValue][] | null {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item]);
  if (value !== null && typeof value === "object") return Object.entries(value);
  return null;
}

function kindOf(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function Node({ name, path, value, depth, expandDepth }: { name: string; path: string; value: JsonValue; depth: number; expandDepth: number }) {
  const [open, setOpen] = useState(depth < expandDepth);
  const entries = entriesOf(value);
  if (!entries) {
    return (
      <li className={styles.leaf} data-path={path}>
        <span className={styles.key}>{name}</span>
        <span className={styles.value} data-kind={kindOf(value)}>
          {previewJson(value, 400)}
        </span>
      </li>
    );
  }
  const size = Array.isArray(value)
    ? `[${entries.length} item${entries.length === 1 ? "" : "s"}]`
    : `{${entries.length} key${entries.length === 1 ? "" : "s"}}`;
  return (
    <li data-path={path}>
      <button type="button" className={styles.toggle} aria-expanded={open} aria-label={`${path || name} ${size}`} onClick={() => setOpen(!open)}>
        <span className={styles.caret} aria-hidden="true">
          {open ? "▾" : "▸"}
        </span>
        <span className={styles.key}>{name}</span>
        <span className={styles.size}>{size}</span>
      </button>
      {open && entries.length > 0 ? (
        <ul className={styles.children}>
          {entries.map(([key, child]) => (
            <Node key={key} name={key} path={joinDiffPath(path, key)} value={child} depth={depth + 1} expandDepth={expandDepth} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** A JSON value as an expandable tree: objects and arrays open and close, leaves show their JSON. */
export function JsonTree({ value, label, expandDepth = 1 }: JsonTreeProps) {
  const entries = entriesOf(value);
  return (
    <ul className={styles.tree} aria-label={label}>
      {entries ? (
        entries.map(([key, child]) => <Node key={key} name={key} path={key} value={child} depth={1} expandDepth={expandDepth} />)
      ) : (
        <Node name={label} path="" value={value} depth={0} expandDepth={expandDepth} />
      )}
    </ul>
  );
}
