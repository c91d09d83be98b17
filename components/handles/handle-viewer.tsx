"use client";

import { useCallback, useId, useMemo, useState } from "react";
import type { OffloadMarker } from "@/lib/import";
import type { OffloadedEntry } from "@/lib/playground/protocol";
import { collectHandles, entryKey, sortHandles, withSizes, type HandleEntry, type HandleSize, type HandleSortKey, type SortDirection } from "./handle-entries";
import { HandleDetail } from "./handle-detail";
import { HandleList } from "./handle-list";
import styles from "./handles.module.css";

export interface HandleViewerProps {
  /** `RunResult.offloaded`: what this run offloaded. */
  offloaded: readonly OffloadedEntry[];
  /** `LoadedConversation.offloadMarkers`: markers other engines (or an earlier run) left in the import. */
  markers?: readonly OffloadMarker[];
  /** The original content behind a handle (the worker's `reload`, or the API); reject for an unknown handle. */
  loadContent(handle: string): Promise<string>;
  /** The open handle, when the caller controls it (URL state); omit to let the viewer keep it. */
  selectedHandle?: string | null;
  /** A handle was opened (its name) or closed (`null`). */
  onSelectHandle?(handle: string | null): void;
  /** Jump to the message a handle came from, in the conversation view. */
  onShowOrigin?(messageIndex: number): void;
  /** Clipboard writer; defaults to `navigator.clipboard.writeText`. */
  copyText?(text: string): Promise<void>;
  /** Tokens of a text as the run counts them: an imported marker's size once its content is loaded. */
  countTokens?(text: string): Promise<number>;
}

const defaultCopy = (text: string) => navigator.clipboard.writeText(text);

/** Every offloaded handle of the run and of the import, sortable and filterable; open one to see its original and the reload_offloaded exchange. */
export function HandleViewer({
  offloaded,
  markers,
  loadContent,
  selectedHandle,
  onSelectHandle,
  onShowOrigin,
  copyText = defaultCopy,
  countTokens,
}: HandleViewerProps) {
  const filterId = useId();
  const [sort, setSort] = useState<{ key: HandleSortKey; direction: SortDirection }>({ key: "origin", direction: "ascending" });
  const [filter, setFilter] = useState("");
  const [ownSelection, setOwnSelection] = useState<string | null>(null);
  // Sizes measured from loaded content, for entries that came without them (imported markers).
  const [measured, setMeasured] = useState<ReadonlyMap<string, HandleSize>>(new Map());
  const entries = useMemo(() => withSizes(collectHandles(offloaded, markers), measured), [offloaded, markers, measured]);
  const measure = useCallback(
    (entry: HandleEntry, content: string) => {
      if (entry.characters !== undefined && entry.tokens !== undefined) return;
      const key = entryKey(entry);
      const keep = (size: HandleSize) => setMeasured((current) => new Map(current).set(key, size));
      keep({ characters: content.length });
      countTokens?.(content).then(
        (tokens) => keep({ characters: content.length, tokens }),
        () => undefined,
      );
    },
    [countTokens],
  );
  const sorted = useMemo(() => sortHandles(entries, sort.key, sort.direction), [entries, sort]);
  const shown =
    filter.trim() === ""
      ? sorted
      : sorted.filter((entry) => entry.handle.toLowerCase().includes(filter.trim().toLowerCase()) || `#${entry.origin}` === filter.trim());

  const controlled = selectedHandle !== undefined;
  const selectedName = controlled ? selectedHandle : ownSelection;
  const open = selectedName ? entries.find((entry) => entry.handle === selectedName) : undefined;

  const select = (entry: HandleEntry | null) => {
    const handle = entry?.handle ?? null;
    if (!controlled) setOwnSelection(handle);
    onSelectHandle?.(handle);
  };

  const onSort = (key: HandleSortKey) =>
    setSort((current) => ({ key, direction: current.key === key && current.direction === "ascending" ? "descending" : "ascending" }));

  if (entries.length === 0) {
    return (
      <section className={styles.viewer} aria-label="Offloaded handles">
        <p className={styles.empty}>
          No offloaded content: this run offloaded nothing and the import held no offload markers. Lower the message offload size to offload long messages.
        </p>
      </section>
    );
  }

  const fromRun = entries.filter((entry) => entry.source === "run").length;
  return (
    <section className={styles.viewer} aria-label="Offloaded handles">
      <div className={styles.toolbar}>
        <span className={styles.count}>
          {fromRun.toLocaleString("en")} offloaded by this run · {(entries.length - fromRun).toLocaleString("en")} imported markers
        </span>
        <label htmlFor={filterId} className={styles.visuallyHidden}>
          Filter handles
        </label>
        <input
          id={filterId}
          type="search"
          className={styles.filter}
          placeholder="Filter handles"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </div>
      <HandleList
        entries={shown}
        sort={sort}
        onSort={onSort}
        selected={open ? entryKey(open) : undefined}
        onOpen={select}
        detail={
          open ? (
            <HandleDetail
              key={entryKey(open)}
              entry={open}
              loadContent={loadContent}
              copyText={copyText}
              onShowOrigin={onShowOrigin}
              onLoaded={(content) => measure(open, content)}
              onClose={() => select(null)}
            />
          ) : null
        }
      />
      {selectedName && !open ? (
        <div className={styles.error} role="alert">
          <p>
            <strong>Unknown handle {selectedName}.</strong> Neither this run nor the import has it.
          </p>
        </div>
      ) : null}
    </section>
  );
}
