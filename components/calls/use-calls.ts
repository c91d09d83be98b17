"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiClient } from "@/lib/client";
import { ApiError } from "@/lib/client/errors";
import type { CallSummary } from "@/lib/calls/types";

export interface CallsState {
  calls: CallSummary[];
  /** Another page waits after the loaded ones. */
  more: boolean;
  loading: boolean;
  error: string | null;
  /** The failure is one that passes (the server or its database away): the list loads again by itself. */
  retrying: boolean;
  loadMore(): void;
}

const PAGE = 100;
/** BD10: the first retry after a failure waits this long; each next one twice as long, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 30_000;

/** No answer, an overloaded or unavailable server (503 while its database is away), a rate limit: worth asking again. */
function isPassing(reason: unknown): boolean {
  if (!ApiError.isInstance(reason)) return true;
  return reason.status === 0 || reason.status === 429 || reason.status >= 500;
}

/**
 * The conversation's calls, a page at a time in call order; `revision`
 * reloads what is shown (a call was recorded) without losing loaded pages.
 * A failure that passes is retried with backoff (1 s, 2 s, 4 s … 30 s), so
 * the tab recovers by itself once the database is back.
 */
export function useCalls(client: ApiClient | null, conversationId: string | null, revision: number, failedOnly = false): CallsState {
  const [state, setState] = useState<{ key: string; calls: CallSummary[]; cursor: string | null; pages: number }>({
    key: "",
    calls: [],
    cursor: null,
    pages: 1,
  });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<{ message: string; retrying: boolean } | null>(null);
  const [retry, setRetry] = useState(0);
  const failures = useRef(0);
  const key = `${conversationId}:${failedOnly}`;
  const pages = state.key === key ? state.pages : 1;

  useEffect(() => {
    if (client === null || conversationId === null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoading(true);
    (async () => {
      const calls: CallSummary[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < pages; page += 1) {
        const result = await client.listCalls(conversationId, { after: cursor, limit: PAGE, failed: failedOnly || undefined }, { signal: controller.signal });
        calls.push(...result.calls);
        cursor = result.nextCursor ?? undefined;
        if (!cursor) break;
      }
      return { calls, cursor: cursor ?? null };
    })().then(
      (loaded) => {
        failures.current = 0;
        setState({ key, calls: loaded.calls, cursor: loaded.cursor, pages });
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted || ApiError.isAbort(reason)) return;
        const retrying = isPassing(reason);
        setError({ message: reason instanceof Error ? reason.message : String(reason), retrying });
        setLoading(false);
        if (!retrying) return;
        const delay = Math.min(RETRY_FIRST_MS * 2 ** failures.current, RETRY_MAX_MS);
        failures.current += 1;
        timer = setTimeout(() => setRetry((count) => count + 1), delay);
      },
    );
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, conversationId, failedOnly, key, pages, revision, retry]);

  const loadMore = useCallback(() => setState((previous) => ({ ...previous, pages: previous.pages + 1 })), []);
  const current = state.key === key ? state : { calls: [], cursor: null };
  return { calls: current.calls, more: current.cursor !== null, loading, error: error?.message ?? null, retrying: error?.retrying ?? false, loadMore };
}
