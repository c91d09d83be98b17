"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { apiClient } from "@/lib/client";
import type { LibraryConversation } from "@/lib/db";
import { DEFAULT_LIBRARY_QUERY, librarySearchParams, readLibraryQuery, type LibraryQuery } from "@/lib/library/query";
import ui from "@/components/ui/ui.module.css";
import { ExampleButton } from "@/components/import/example-button";
import { ConversationRows } from "./conversation-rows";
import { LibraryToolbar } from "./toolbar";
import { LibraryPager } from "./pager";
import styles from "./library.module.css";

export interface ConversationLibraryProps {
  /** The page the server rendered, for `query`. */
  conversations: readonly LibraryConversation[];
  total: number;
  query: LibraryQuery;
}

interface Loaded {
  /** The query's URL parameters: what these rows answer. */
  key: string;
  conversations: readonly LibraryConversation[];
  total: number;
}

const number = (value: number) => value.toLocaleString("en");

/** Whether the query narrows the library (a search or a filter), so an empty page means "no match", not "nothing saved". */
function narrows(query: LibraryQuery): boolean {
  return query.q !== "" || query.source !== undefined || query.failed || query.overBudget;
}

/**
 * The home page's saved conversations: search, filters, sort and pages (lib/library). The URL is the
 * state (LB-5): a change writes it, and whatever query the URL holds (a change, the back button) is
 * fetched from `GET /api/conversations` unless the rows shown already answer it.
 */
export function ConversationLibrary({ conversations, total, query: rendered }: ConversationLibraryProps) {
  const params = useSearchParams();
  const search = params.toString();
  const fromUrl = useMemo(() => readLibraryQuery(Object.fromEntries(new URLSearchParams(search))), [search]);
  // A change shows at once; the router tells the URL's new parameters a moment later, and from then on the URL decides.
  const [requested, setRequested] = useState<{ from: string; query: LibraryQuery }>();
  const query = requested && requested.from === search ? requested.query : fromUrl.query;
  const problems = requested && requested.from === search ? [] : fromUrl.problems;
  const key = librarySearchParams(query).toString();
  useEffect(() => {
    // Once the URL has moved on, a later return to the same address (the back button) is the URL's again.
    if (requested && requested.from !== search) setRequested(undefined);
  }, [requested, search]);
  const [loaded, setLoaded] = useState<Loaded>(() => ({ key: librarySearchParams(rendered).toString(), conversations, total }));
  // The server rendered the page again (an import called router.refresh): its rows are the freshest for their query.
  useEffect(() => setLoaded({ key: librarySearchParams(rendered).toString(), conversations, total }), [rendered, conversations, total]);
  const [reloads, setReloads] = useState(0);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (loaded.key === key && reloads === 0) return;
    const controller = new AbortController();
    // From the key, not the query object: the same query reaches here twice (shown at once, then read from the URL).
    apiClient
      .listConversations(readLibraryQuery(Object.fromEntries(new URLSearchParams(key))).query, { signal: controller.signal })
      .then((page) => {
        setError(undefined);
        setReloads(0);
        setLoaded({ key, conversations: page.conversations, total: page.total });
      })
      .catch((caught: unknown) => {
        if (!controller.signal.aborted) setError(caught instanceof Error ? caught.message : String(caught));
      });
    return () => controller.abort();
  }, [key, loaded.key, reloads]);

  // LB-5: every change is a history entry, so the URL can be shared and the back button undoes it; typing replaces its entry.
  const navigate = (changes: Partial<LibraryQuery>, mode: "push" | "replace" = "push") => {
    const nextQuery = { ...query, offset: 0, ...changes };
    const next = librarySearchParams(nextQuery).toString();
    const href = next ? `/?${next}` : "/";
    setRequested({ from: search, query: nextQuery });
    if (mode === "push") window.history.pushState(null, "", href);
    else window.history.replaceState(null, "", href);
  };

  const pending = loaded.key !== key;
  const { conversations: rows, total: matching } = loaded;
  // The count, the pages and the empty state describe the rows on screen until the next ones arrive.
  const shown = useMemo(() => readLibraryQuery(Object.fromEntries(new URLSearchParams(loaded.key))).query, [loaded.key]);
  const first = matching === 0 ? 0 : shown.offset + 1;
  const last = shown.offset + rows.length;
  return (
    <section className={styles.library} aria-labelledby="saved-title">
      <h2 id="saved-title">Saved conversations</h2>
      <LibraryToolbar query={query} onChange={navigate} />
      {error ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          The list could not be loaded: {error}
        </p>
      ) : null}
      {problems.length > 0 ? (
        <p role="alert" className={ui.notice} data-tone="warning">
          Part of the address was ignored: {problems.join("; ")}.
        </p>
      ) : null}
      <p className={styles.count} role="status" aria-busy={pending || undefined}>
        {matching === 0
          ? narrows(shown)
            ? "No conversation matches"
            : "No conversations yet"
          : `${number(first)}–${number(last)} of ${number(matching)} ${narrows(shown) ? "matching " : ""}conversation${matching === 1 ? "" : "s"}`}
        {pending ? " · updating…" : ""}
      </p>
      {matching === 0 && !narrows(shown) ? (
        <div className={styles.empty}>
          <p>
            <strong>No conversations yet.</strong> Paste one on the left, drop a file, or start with a real airline-support trajectory from tau-bench: 62
            messages, tool chains and all.
          </p>
          <ExampleButton />
        </div>
      ) : matching === 0 ? (
        <div className={styles.empty}>
          <p>Nothing matches this search and these filters. Words match the start of words in titles, keys, models, agents, messages and dates.</p>
          <button type="button" className={ui.button} onClick={() => navigate({ ...DEFAULT_LIBRARY_QUERY, sort: shown.sort, order: shown.order })}>
            Clear search and filters
          </button>
        </div>
      ) : (
        <>
          <ConversationRows conversations={rows} onDeleted={() => setReloads((count) => count + 1)} />
          <LibraryPager query={shown} total={matching} shown={rows.length} onPage={(offset) => navigate({ offset })} />
          <div className={styles.more}>
            <ExampleButton variant="plain" />
          </div>
        </>
      )}
    </section>
  );
}
