"use client";

import { useEffect, useState } from "react";
import type { ApiClient } from "@/lib/client";
import { ApiError } from "@/lib/client/errors";
import type { SessionOverview } from "@/lib/client/types";

/**
 * The open conversation as an agent's session (origin, parent, subagents,
 * compactions, reported usage), fetched again when `revision` changes (new
 * turns arrived); null until loaded or without a client.
 */
export function useSessionOverview(client: ApiClient | null, conversationId: string | null, branchId: string | null, revision: number): SessionOverview | null {
  const [overview, setOverview] = useState<{ key: string; revision: number; value: SessionOverview } | null>(null);
  const key = `${conversationId}:${branchId}`;
  useEffect(() => {
    if (client === null || conversationId === null) return;
    const controller = new AbortController();
    client.getSessionOverview(conversationId, branchId ?? undefined, { signal: controller.signal }).then(
      (value) => setOverview({ key, revision, value }),
      (reason: unknown) => {
        // The overview adds to the view; without it the conversation still shows.
        if (!controller.signal.aborted && !ApiError.isAbort(reason)) setOverview(null);
      },
    );
    return () => controller.abort();
  }, [client, conversationId, branchId, key, revision]);
  // A newer revision keeps showing the last overview until its own arrives.
  return overview?.key === key ? overview.value : null;
}
