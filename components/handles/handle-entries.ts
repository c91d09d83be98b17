import type { Message } from "@/lib/context/light";
import type { OffloadMarker } from "@/lib/import";
import type { OffloadedEntry } from "@/lib/playground/protocol";

/** Where a handle came from: offloaded by this run, or a marker another engine (or an earlier Context Lab run) left in the import. */
export type HandleSource = "run" | OffloadMarker["engine"];

/** One row of the handle viewer. */
export interface HandleEntry {
  handle: string;
  source: HandleSource;
  /** Index of the message in the conversation as loaded (-1 when unknown). */
  origin: number;
  /** Known for handles this run offloaded. */
  characters?: number;
  tokens?: number;
  /** The marker text, for imported markers. */
  marker?: string;
}

/** A handle's size, measured from its loaded content. */
export interface HandleSize {
  characters: number;
  tokens?: number;
}

/** The entries with the sizes measured since (by `entryKey`) filling those they came without. */
export function withSizes(entries: readonly HandleEntry[], sizes: ReadonlyMap<string, HandleSize>): HandleEntry[] {
  if (sizes.size === 0) return [...entries];
  return entries.map((entry) => {
    const size = sizes.get(entryKey(entry));
    return size ? { ...entry, characters: entry.characters ?? size.characters, tokens: entry.tokens ?? size.tokens } : entry;
  });
}

export type HandleSortKey = "handle" | "source" | "origin" | "characters" | "tokens";
export type SortDirection = "ascending" | "descending";

export const SOURCE_LABELS: Readonly<Record<HandleSource, string>> = {
  run: "this run",
  exo: "imported (Exo / agent-core)",
  "context-lab": "imported (Context Lab)",
};

/** The run's offloaded entries, then the import's markers; a handle listed twice by the same source is kept once. */
export function collectHandles(offloaded: readonly OffloadedEntry[], markers: readonly OffloadMarker[] = []): HandleEntry[] {
  const seen = new Set<string>();
  const entries: HandleEntry[] = [];
  const add = (entry: HandleEntry) => {
    const key = `${entry.source}\u0000${entry.handle}`;
    if (seen.has(key)) return;
    seen.add(key);
    entries.push(entry);
  };
  for (const entry of offloaded) add({ handle: entry.handle, source: "run", origin: entry.origin, characters: entry.characters, tokens: entry.tokens });
  for (const marker of markers) add({ handle: marker.handle, source: marker.engine, origin: marker.messageIndex, marker: marker.marker });
  return entries;
}

/** A sorted copy; unknown sizes sort last either way. */
export function sortHandles(entries: readonly HandleEntry[], key: HandleSortKey, direction: SortDirection): HandleEntry[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...entries].sort((left, right) => {
    const a = left[key];
    const b = right[key];
    if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
    const order = typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b));
    return order * sign || left.origin - right.origin;
  });
}

/** Key unique per row (a handle may be both offloaded by the run and found in the import). */
export function entryKey(entry: HandleEntry): string {
  return `${entry.source}:${entry.handle}`;
}

/** The call id the preview uses: deterministic, so copying twice gives the same text. */
export function reloadCallId(handle: string): string {
  return `call_reload_${handle.replace(/^off_/, "")}`;
}

/** Exactly what an agent sends and gets back through `reload_offloaded`: its tool call, and the tool message holding the original. */
export function reloadExchange(handle: string, content: string): { call: Message; result: Message } {
  const id = reloadCallId(handle);
  return {
    call: {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "reload_offloaded", arguments: JSON.stringify({ handle }) } }],
    },
    result: { role: "tool", tool_call_id: id, content },
  };
}
