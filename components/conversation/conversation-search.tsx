"use client";

import { forwardRef, useMemo, useState, type RefObject } from "react";
import type { Message } from "@/lib/context/light";
import styles from "./conversation-view.module.css";
import { useSearchHighlight } from "./search-highlight";

/** Indices of the messages whose text, name, tool call or call id contains `query` (case-insensitive). */
export function findMatches(messages: readonly Message[], query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === "") return [];
  const matches: number[] = [];
  messages.forEach((message, index) => {
    const haystacks = [
      message.content ?? "",
      message.name ?? "",
      message.tool_call_id ?? "",
      ...(message.tool_calls ?? []).flatMap((call) => [call.function.name, call.function.arguments, call.id]),
    ];
    if (haystacks.some((text) => text.toLowerCase().includes(needle))) matches.push(index);
  });
  return matches;
}

export interface ConversationSearchProps {
  messages: readonly Message[];
  selected: number | null;
  onSelect: (index: number) => void;
  /** Where the messages are shown: their matches are marked there. */
  highlightIn: RefObject<HTMLElement | null>;
}

/**
 * Find in the conversation: the browser's own find sees only the rows on
 * screen of a virtualised list, so this searches every message and moves
 * the selection (and the scroll) from match to match.
 */
export const ConversationSearch = forwardRef<HTMLInputElement, ConversationSearchProps>(function ConversationSearch(
  { messages, selected, onSelect, highlightIn },
  ref,
) {
  const [query, setQuery] = useState("");
  useSearchHighlight(highlightIn, query);
  const matches = useMemo(() => findMatches(messages, query), [messages, query]);
  const position = selected === null ? -1 : matches.indexOf(selected);
  const go = (direction: 1 | -1) => {
    if (matches.length === 0) return;
    const from = selected ?? -1;
    const next =
      direction > 0 ? (matches.find((index) => index > from) ?? matches[0]) : (matches.findLast((index) => index < from) ?? matches[matches.length - 1]);
    onSelect(next);
  };
  return (
    <div className={styles.search} role="search">
      <input
        ref={ref}
        type="search"
        aria-label="Find in the conversation"
        placeholder="Find… ( / )"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            go(event.shiftKey ? -1 : 1);
          } else if (event.key === "Escape") {
            setQuery("");
            event.currentTarget.blur();
          }
        }}
      />
      {query.trim() !== "" ? (
        <span className={styles.searchCount} aria-live="polite">
          {matches.length === 0 ? "no match" : `${position >= 0 ? position + 1 : "–"} of ${matches.length.toLocaleString("en")}`}
        </span>
      ) : null}
      <button type="button" className={styles.searchStep} aria-label="Previous match" disabled={matches.length === 0} onClick={() => go(-1)}>
        ↑
      </button>
      <button type="button" className={styles.searchStep} aria-label="Next match" disabled={matches.length === 0} onClick={() => go(1)}>
        ↓
      </button>
    </div>
  );
});
