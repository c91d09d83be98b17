"use client";

import { useMemo } from "react";
import { apiClient, type ApiClient } from "@/lib/client";
import type { BranchTreeNode } from "@/lib/db";
import { CheckpointBrowser } from "./checkpoint-browser";
import { useCheckpointNow, useCheckpoints, useSummaries } from "./use-checkpoints";
import styles from "./checkpoints.module.css";

export interface CheckpointsPanelProps {
  branchId: string | null;
  /** The conversation's branch tree: names the branches of inherited checkpoints. */
  tree: readonly BranchTreeNode[];
  client?: ApiClient;
  /** Called after "Checkpoint now" wrote (or tried to write) a checkpoint, e.g. to refresh other views. */
  onCheckpointed?: () => void;
}

function namesOf(tree: readonly BranchTreeNode[]): Record<string, string> {
  const names: Record<string, string> = {};
  const visit = (branch: BranchTreeNode) => {
    names[branch.id] = branch.name;
    branch.children.forEach(visit);
  };
  tree.forEach(visit);
  return names;
}

/** The Checkpoints tab wired to the API: loads the branch's checkpoints; "Checkpoint now" forces a compaction. */
export function CheckpointsPanel({ branchId, tree, client = apiClient, onCheckpointed }: CheckpointsPanelProps) {
  const { data, error, loading, refresh } = useCheckpoints(client, branchId);
  const summaries = useSummaries(client, branchId);
  const now = useCheckpointNow(client, branchId, () => {
    refresh();
    summaries.refresh();
    onCheckpointed?.();
  });
  const branchNames = useMemo(() => namesOf(tree), [tree]);
  if (branchId === null) return <p className={styles.muted}>Open a conversation to see its checkpoints.</p>;
  if (error) {
    return (
      <p className={styles.message} role="alert">
        Could not load checkpoints: {error.message}
      </p>
    );
  }
  if (!data) return <p className={styles.muted}>{loading ? "Loading checkpoints…" : ""}</p>;
  return (
    <CheckpointBrowser
      checkpoints={data}
      branchNames={branchNames}
      onCheckpointNow={() => void now.run()}
      checkpointing={now.pending}
      checkpointMessage={now.message}
      summaries={summaries.data}
    />
  );
}
