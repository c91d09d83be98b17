import type { CheckpointEntry } from "@/lib/client";
import type { JsonValue } from "@/lib/db";

/** A checkpoint row of the browser: the stored entry plus its branch's name. */
export interface CheckpointRow extends CheckpointEntry {
  branchName: string;
}

export type CheckpointOrigin = "own" | "inherited";

const number = (value: number) => value.toLocaleString("en");

export function formatNumber(value: number): string {
  return number(value);
}

/**
 * The tokens the next request carries after this checkpoint: lib/memory's
 * `token_usage.context`, else a `total` or `history` count another writer
 * used; null when the usage holds none of them.
 */
export function checkpointTokens(checkpoint: Pick<CheckpointEntry, "tokenUsage">): number | null {
  for (const key of ["context", "total", "history"]) {
    const value = checkpoint.tokenUsage[key];
    if (typeof value === "number") return value;
  }
  return null;
}

const pad = (value: number) => String(value).padStart(2, "0");

/** "2026-03-09 14:05:12" in the viewer's time zone; the ISO text when unreadable. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** "03-09 14:05": a table cell's width (the full time is its title). */
export function formatShortTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** `v3 · main`: how a checkpoint is named in labels. */
export function checkpointName(checkpoint: Pick<CheckpointRow, "version" | "branchName">): string {
  return `v${checkpoint.version} · ${checkpoint.branchName}`;
}

/** One line of a JSON value: `"text"`, `12`, `[3 items]`, `{4 keys}`, cut at `limit` characters. */
export function previewJson(value: JsonValue | undefined, limit = 80): string {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** What the text filter searches: branch, version, reason, summary id and artifact refs. */
export function searchableText(row: CheckpointRow): string {
  const reason = row.metadata && typeof row.metadata.reason === "string" ? row.metadata.reason : "";
  return [row.branchName, `v${row.version}`, reason, row.summaryId ?? "", row.id, ...row.artifactRefs].join(" ").toLowerCase();
}

/** Orders two checkpoints oldest first: by history covered, then creation, then version. */
export function inHistoryOrder<T extends Pick<CheckpointRow, "messageCount" | "createdAt" | "version">>(left: T, right: T): [T, T] {
  const order = left.messageCount - right.messageCount || left.createdAt.localeCompare(right.createdAt) || left.version - right.version;
  return order <= 0 ? [left, right] : [right, left];
}
