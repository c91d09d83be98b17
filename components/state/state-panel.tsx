"use client";

import { useMemo } from "react";
import { apiClient, type ApiClient } from "@/lib/client";
import type { ContextNode } from "@/lib/playground/protocol";
import { buildStateTree } from "./state-model";
import { ContextStateTree } from "./state-tree";
import { useBranchState } from "./use-branch-state";
import styles from "./state-tree.module.css";

export interface StatePanelProps {
  branchId: string | null;
  /** The last pipeline run's contexts (`RunResult.contexts`), root first; empty before the first run. */
  contexts: readonly ContextNode[];
  client?: ApiClient;
  /** Bump to reload the stored state (after a fork, a compaction, a recorded turn). */
  revision?: number;
}

/** The State tab: the branch lineage's stored state and the live pipeline contexts, in one tree. */
export function StatePanel({ branchId, contexts, client = apiClient, revision = 0 }: StatePanelProps) {
  const stored = useBranchState(client, branchId, revision);
  const nodes = useMemo(() => buildStateTree(stored.data ?? null, contexts), [stored.data, contexts]);
  return (
    <div>
      {stored.error ? (
        <p className={styles.note} role="alert">
          Stored state unavailable ({stored.error.message}); showing the live contexts only.
        </p>
      ) : null}
      {stored.loading && !stored.data ? <p className={styles.note}>Loading the branch&apos;s stored state…</p> : null}
      <ContextStateTree nodes={nodes} />
    </div>
  );
}
