"use client";

import { useMemo, useState } from "react";
import { apiClient, type ApiClient } from "@/lib/client";
import type { BranchTreeNode } from "@/lib/db";
import { BranchDivergence } from "./branch-divergence";
import { flattenBranchTree } from "./branch-layout";
import { BranchTree } from "./branch-tree";
import { ForkButton, ForkDialog, type ForkHandler } from "./fork-controls";
import { useBranchComparison } from "./use-divergence";
import styles from "./branches-panel.module.css";

export interface BranchesPanelProps {
  tree: readonly BranchTreeNode[];
  currentBranchId: string | null;
  /** Messages a fork from the selection inherits (selected position + 1); null without a selection. */
  forkPosition: number | null;
  onSwitch: (branchId: string) => void;
  onFork: ForkHandler;
  forking?: boolean;
  forkError?: string | null;
  /** Loads histories for the comparison; defaults to the same-origin client. */
  client?: ApiClient;
}

/** The Branches tab: fork controls, the branch tree, and where two ticked branches diverge. */
export function BranchesPanel({ tree, currentBranchId, forkPosition, onSwitch, onFork, forking = false, forkError, client = apiClient }: BranchesPanelProps) {
  const [compared, setCompared] = useState<string[]>([]);
  const current = useMemo(() => flattenBranchTree(tree).find((branch) => branch.id === currentBranchId) ?? null, [tree, currentBranchId]);
  const known = useMemo(() => new Set(flattenBranchTree(tree).map((branch) => branch.id)), [tree]);
  const picked = compared.filter((id) => known.has(id));
  const pair = picked.length === 2 ? ([picked[0], picked[1]] as const) : null;
  const { comparison, error, loading } = useBranchComparison(client, tree, pair);

  const toggle = (branchId: string) =>
    setCompared((ids) => (ids.includes(branchId) ? ids.filter((id) => id !== branchId) : [...ids.filter((id) => known.has(id)), branchId].slice(-2)));

  return (
    <div className={styles.panel}>
      {current ? (
        <section className={styles.section} aria-label="Fork">
          <h3>Fork {current.name}</h3>
          <div>
            <ForkButton position={forkPosition} onFork={onFork} pending={forking} />{" "}
            <ForkDialog position={forkPosition} length={current.length} branchName={current.name} onFork={onFork} pending={forking} error={forkError} />
          </div>
          {forkError ? (
            <p className={styles.error} role="alert">
              {forkError}
            </p>
          ) : null}
        </section>
      ) : null}
      <section className={styles.section} aria-label="Branch tree">
        <h3>Branches</h3>
        <BranchTree tree={tree} currentBranchId={currentBranchId} onSwitch={onSwitch} compared={picked} onToggleCompare={toggle} />
      </section>
      <section className={styles.section} aria-label="Compare branches">
        <h3>Where they diverge</h3>
        {pair === null ? <p className={styles.hint}>Tick two branches to see their common prefix and the first message where they differ.</p> : null}
        {pair !== null && loading && !comparison ? <p className={styles.hint}>Comparing histories…</p> : null}
        {error ? (
          <p className={styles.error} role="alert">
            Could not load the histories: {error.message}
          </p>
        ) : null}
        {comparison ? (
          <BranchDivergence left={comparison.left} right={comparison.right} divergence={comparison.divergence} lineage={comparison.lineage} />
        ) : null}
      </section>
    </div>
  );
}
