"use client";

import { useEffect, useState } from "react";
import type { ApiClient } from "@/lib/client";
import { ApiError } from "@/lib/client/errors";
import type { ConversationCost } from "@/lib/client/types";

export interface SessionCostState {
  cost: ConversationCost | null;
  error: string | null;
}

/** What every call of the conversation (and its subagents) cost, reported or predicted, and why the cache broke; fetched again when `revision` changes. */
export function useSessionCost(client: ApiClient | null, conversationId: string | null, revision: number): SessionCostState {
  const [state, setState] = useState<{ key: string; revision: number; cost: ConversationCost | null; error: string | null }>({
    key: "",
    revision: 0,
    cost: null,
    error: null,
  });
  const key = `${conversationId}`;
  useEffect(() => {
    if (client === null || conversationId === null) return;
    const controller = new AbortController();
    client.getConversationCost(conversationId, { subagents: true }, { signal: controller.signal }).then(
      (cost) => setState({ key, revision, cost, error: null }),
      (reason: unknown) => {
        if (controller.signal.aborted || ApiError.isAbort(reason)) return;
        setState({ key, revision, cost: null, error: reason instanceof Error ? reason.message : String(reason) });
      },
    );
    return () => controller.abort();
  }, [client, conversationId, key, revision]);
  return state.key === key ? { cost: state.cost, error: state.error } : { cost: null, error: null };
}
