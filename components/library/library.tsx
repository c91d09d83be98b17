"use client";

import { usePathname, useRouter } from "next/navigation";
import { useTransition } from "react";
import type { LibraryConversation } from "@/lib/db";
import { DEFAULT_LIBRARY_QUERY, librarySearchParams, type LibraryQuery } from "@/lib/library/query";
import ui from "@/components/ui/ui.module.css";
import { ExampleButton } from "@/components/import/example-button";
import { ConversationRows } from "./conversation-rows";
import { LibraryToolbar } from "./toolbar";
import { LibraryPager } from "./pager";
import styles from "./library.module.css";

export interface ConversationLibraryProps {
  conversations: readonly LibraryConversation[];
  total: number;
  query: LibraryQuery;
  /** URL parameters that did not parse and were left at their defaults (LB5). */
  problems: readonly string[];
}

const number = (value: number) => value.toLocaleString("en");

/** Whether the query narrows the library (a search or a filter), so an empty page means "no match", not "nothing saved". */
function narrows(query: LibraryQuery): boolean {
  return query.q !== "" || query.source !== undefined || query.failed || query.overBudget;
}

/** The home page's saved conversations: search, filters, sort and pages, all kept in the URL (lib/library LB5). */
export function ConversationLibrary({ conversations, total, query, problems }: ConversationLibraryProps) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();

  // LB5: every change is a navigation, so the URL can be shared and the back button undoes it; typing replaces its entry.
  const navigate = (changes: Partial<LibraryQuery>, mode: "push" | "replace" = "push") => {
    const next = { ...query, offset: 0, ...changes };
    const search = librarySearchParams(next).toString();
    const href = search ? `${pathname}?${search}` : pathname;
    startTransition(() => (mode === "push" ? router.push(href, { scroll: false }) : router.replace(href, { scroll: false })));
  };

  const first = total === 0 ? 0 : query.offset + 1;
  const last = query.offset + conversations.length;
  return (
    <section className={styles.library} aria-labelledby="saved-title">
      <h2 id="saved-title">Saved conversations</h2>
      <LibraryToolbar query={query} onChange={navigate} />
      {problems.length > 0 ? (
        <p role="alert" className={ui.notice} data-tone="warning">
          Part of the address was ignored: {problems.join("; ")}.
        </p>
      ) : null}
      <p className={styles.count} role="status" aria-busy={pending || undefined}>
        {total === 0
          ? narrows(query)
            ? "No conversation matches"
            : "No conversations yet"
          : `${number(first)}–${number(last)} of ${number(total)} ${narrows(query) ? "matching " : ""}conversation${total === 1 ? "" : "s"}`}
        {pending ? " · updating…" : ""}
      </p>
      {total === 0 && !narrows(query) ? (
        <div className={styles.empty}>
          <p>
            <strong>No conversations yet.</strong> Paste one on the left, drop a file, or start with a real airline-support trajectory from tau-bench: 62
            messages, tool chains and all.
          </p>
          <ExampleButton />
        </div>
      ) : total === 0 ? (
        <div className={styles.empty}>
          <p>Nothing matches this search and these filters. Words match the start of words in titles, keys, models, agents, messages and dates.</p>
          <button type="button" className={ui.button} onClick={() => navigate({ ...DEFAULT_LIBRARY_QUERY, sort: query.sort, order: query.order })}>
            Clear search and filters
          </button>
        </div>
      ) : (
        <>
          <ConversationRows conversations={conversations} />
          <LibraryPager query={query} total={total} shown={conversations.length} />
        </>
      )}
    </section>
  );
}
