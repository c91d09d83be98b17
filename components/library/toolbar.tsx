"use client";

import { useEffect, useRef, useState } from "react";
import { LIBRARY_SORTS, LIBRARY_SOURCES, type LibraryOrder, type LibraryQuery, type LibrarySort, type LibrarySource } from "@/lib/library/query";
import ui from "@/components/ui/ui.module.css";
import styles from "./library.module.css";

/** A search waits this long after the last keystroke, so typing a word asks the server once, not once a letter. */
const SEARCH_DELAY_MS = 200;

const SOURCE_LABELS: Record<LibrarySource, string> = { import: "Imported", proxy: "Recorded by the proxy", agent: "Coding-agent sessions" };
const SORT_LABELS: Record<LibrarySort, string> = {
  updated: "Last changed",
  created: "Created",
  title: "Title",
  messages: "Messages",
  tokens: "Tokens",
};
const ORDER_LABELS: Record<LibrarySort, Record<LibraryOrder, string>> = {
  updated: { desc: "Newest first", asc: "Oldest first" },
  created: { desc: "Newest first", asc: "Oldest first" },
  title: { desc: "Z to A", asc: "A to Z" },
  messages: { desc: "Most first", asc: "Fewest first" },
  tokens: { desc: "Most first", asc: "Fewest first" },
};

export interface LibraryToolbarProps {
  query: LibraryQuery;
  onChange: (changes: Partial<LibraryQuery>, mode?: "push" | "replace") => void;
}

/** The library's search box, filters and sort (lib/library LB1, LB3, LB4). */
export function LibraryToolbar({ query, onChange }: LibraryToolbarProps) {
  const [text, setText] = useState(query.q);
  const sent = useRef(query.q);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The URL changed by itself (back button, a link): the box shows its search again.
  useEffect(() => {
    if (query.q !== sent.current) {
      sent.current = query.q;
      setText(query.q);
    }
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = (value: string, delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (value.trim() === sent.current) return;
      sent.current = value.trim();
      onChange({ q: value.trim() }, "replace");
    }, delay);
  };

  return (
    <div className={styles.toolbar} role="group" aria-label="Search, filter and sort">
      <form
        className={styles.search}
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          search(text, 0);
        }}
      >
        <label htmlFor="library-search" className="visually-hidden">
          Search conversations
        </label>
        <input
          id="library-search"
          type="search"
          value={text}
          placeholder="Search titles, models, agents, messages, dates…"
          autoComplete="off"
          maxLength={500}
          onChange={(event) => {
            setText(event.target.value);
            search(event.target.value, SEARCH_DELAY_MS);
          }}
        />
      </form>
      <label className={styles.field}>
        Source
        <select value={query.source ?? ""} onChange={(event) => onChange({ source: LIBRARY_SOURCES.find((source) => source === event.target.value) })}>
          <option value="">Any</option>
          {LIBRARY_SOURCES.map((source) => (
            <option key={source} value={source}>
              {SOURCE_LABELS[source]}
            </option>
          ))}
        </select>
      </label>
      <label className={styles.field}>
        <input type="checkbox" checked={query.failed} onChange={(event) => onChange({ failed: event.target.checked })} />
        Failed calls
      </label>
      <label className={styles.field}>
        <input type="checkbox" checked={query.overBudget} onChange={(event) => onChange({ overBudget: event.target.checked })} />
        Over budget
      </label>
      <label className={styles.field}>
        Sort
        <select value={query.sort} onChange={(event) => onChange({ sort: LIBRARY_SORTS.find((sort) => sort === event.target.value) })}>
          {LIBRARY_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className={ui.button}
        data-variant="ghost"
        aria-label={`Order: ${ORDER_LABELS[query.sort][query.order]}; change to ${ORDER_LABELS[query.sort][query.order === "desc" ? "asc" : "desc"]}`}
        onClick={() => onChange({ order: query.order === "desc" ? "asc" : "desc" })}
      >
        {ORDER_LABELS[query.sort][query.order]}
      </button>
    </div>
  );
}
