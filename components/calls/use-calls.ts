"use client";

import { useCallback, useEffect, useState } from "react";
import type { ApiClient } from "@/lib/client";
import { ApiError } from "@/lib/client/errors";
import type { CallSummary } from "@/lib/calls/types";

export interface CallsState {
  calls: CallSummary[];
  /** Another page waits after the loaded ones. */
  more: boolean;
  loading: boolean;
  error: string | null;
  loadMore(): void;
}

const PAGE = 100;

/**
 * The conversation's calls, a page at a time in call order; `revision`
 * reloads what is shown (a call was recorded) without losing loaded pages.
 */
export function useCalls(client: ApiClient | null, conversationId: string | null, revision: number, failedOnly = false): CallsState {
  const [state, setState] = useState<{ key: string; calls: CallSummary[]; cursor: string | null; pages: number }>({
    key: "",
    calls: [],
    cursor: null,
    pages: 1,
  });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = `${conversationId}:${failedOnly}`;
  const pages = state.key === key ? state.pages : 1;

  useEffect(() => {
    if (client === null || conversationId === null) return;
    const controller = new AbortController();
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
        setState({ key, calls: loaded.calls, cursor: loaded.cursor, pages });
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (controller.signal.aborted || ApiError.isAbort(reason)) return;
        setError(reason instanceof Error ? reason.message : String(reason));
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [client, conversationId, failedOnly, key, pages, revision]);

  const loadMore = useCallback(() => setState((previous) => ({ ...previous, pages: previous.pages + 1 })), []);
  const current = state.key === key ? state : { calls: [], cursor: null };
  return { calls: current.calls, more: current.cursor !== null, loading, error, loadMore };
}
