"use client";

import { useState } from "react";
import type { ApiClient, CheckpointEntry, CompactResult, SummaryEntry } from "@/lib/client";
import { useApi, useApiAction, type ApiState } from "@/lib/client/hooks";

/** The summary chain the branch sees, oldest first: the text behind each checkpoint's `summaryId`. */
export function useSummaries(client: ApiClient, branchId: string | null): ApiState<SummaryEntry[]> {
  return useApi(branchId === null ? null : (signal) => client.listSummaries(branchId, { signal }), [client, branchId]);
}

/** The branch's own and inherited checkpoints; null `branchId` loads nothing. */
export function useCheckpoints(client: ApiClient, branchId: string | null): ApiState<CheckpointEntry[]> {
  return useApi(branchId === null ? null : (signal) => client.listCheckpoints(branchId, { signal }), [client, branchId]);
}

export interface CheckpointNow {
  run: () => Promise<CompactResult | undefined>;
  pending: boolean;
  /** What the last run said: written, nothing to compact, or the error. */
  message: string | null;
}

/** "Checkpoint now": a forced compaction, then `onDone` (reload the list). */
export function useCheckpointNow(client: ApiClient, branchId: string | null, onDone?: () => void): CheckpointNow {
  const [message, setMessage] = useState<string | null>(null);
  const action = useApiAction(async () => {
    if (branchId === null) return undefined;
    const result = await client.compactBranch(branchId, { force: true });
    const compaction = result.compaction;
    setMessage(
      compaction
        ? `Checkpoint v${compaction.checkpoint.version} written: messages ${compaction.summary.fromPosition}–${compaction.summary.toPosition - 1} summarised.`
        : "Nothing to checkpoint yet: the branch needs messages older than its 2 most recent rounds.",
    );
    onDone?.();
    return result;
  });
  const run = async () => {
    setMessage(null);
    return action.run();
  };
  return { run, pending: action.pending, message: action.error ? `Checkpoint failed: ${action.error.message}` : message };
}
