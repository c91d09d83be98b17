"use client";

import { useMemo } from "react";
import type { ApiClient } from "@/lib/client";
import { useApi, type ApiState } from "@/lib/client/hooks";
import type { BranchTreeNode, MessageRecord } from "@/lib/db";
import { findDivergence, sharedLineage, type Divergence, type SharedLineage } from "./divergence";

export interface BranchComparison {
  left: BranchTreeNode;
  right: BranchTreeNode;
  lineage: SharedLineage | null;
  divergence: Divergence;
}

interface LoadedTails {
  leftId: string;
  rightId: string;
  from: number;
  left: MessageRecord[];
  right: MessageRecord[];
}

/**
 * Loads two branches' histories and finds where they part. Only the tails
 * past the prefix both inherit from their common ancestor are fetched: those
 * positions are the same stored rows on both sides.
 */
export function useBranchComparison(
  client: ApiClient,
  tree: readonly BranchTreeNode[],
  pair: readonly [string, string] | null,
): Omit<ApiState<LoadedTails>, "data"> & { comparison: BranchComparison | undefined } {
  const [leftId, rightId] = pair ?? [null, null];
  const lineage = useMemo(() => (leftId && rightId ? sharedLineage(tree, leftId, rightId) : null), [tree, leftId, rightId]);
  const from = lineage?.sharedPrefix ?? 0;
  const state = useApi<LoadedTails>(
    leftId && rightId
      ? async (signal) => {
          const [left, right] = await Promise.all([client.getMessages(leftId, { from }, { signal }), client.getMessages(rightId, { from }, { signal })]);
          return { leftId, rightId, from, left, right };
        }
      : null,
    [client, leftId, rightId, from],
  );
  const comparison = useMemo(() => {
    const data = state.data;
    if (!data || data.leftId !== leftId || data.rightId !== rightId) return undefined;
    const branches = new Map<string, BranchTreeNode>();
    const visit = (branch: BranchTreeNode): void => {
      branches.set(branch.id, branch);
      for (const child of branch.children) visit(child);
    };
    tree.forEach(visit);
    const left = branches.get(data.leftId);
    const right = branches.get(data.rightId);
    if (!left || !right) return undefined;
    return { left, right, lineage, divergence: findDivergence(data.left, data.right, data.from) };
  }, [state.data, tree, leftId, rightId, lineage]);
  return { comparison, error: state.error, loading: state.loading, refresh: state.refresh };
}
