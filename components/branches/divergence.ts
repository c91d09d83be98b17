import type { BranchTreeNode, MessageRecord } from "@/lib/db";
import { sameMessage } from "@/lib/context/light";
import { flattenBranchTree } from "./branch-layout";

/** Where two histories part: how many leading messages they share and the first message of each after that. */
export interface Divergence {
  /** Leading messages both histories hold (same stored row, or equal content). */
  commonPrefix: number;
  /** The left history's first message past the common prefix; null when it ends there. */
  left: MessageRecord | null;
  right: MessageRecord | null;
  /** Both histories hold exactly the same messages. */
  identical: boolean;
}

function sameRecord(left: MessageRecord, right: MessageRecord): boolean {
  // Inherited messages are the ancestor's own rows; message equality also catches a message re-typed identically after a fork.
  return left.id === right.id || sameMessage(left.message, right.message);
}

/**
 * Compares two branch histories message by message. Both must start at the
 * same position (`offset`, when only the tails past a prefix known to be
 * shared were loaded); positions in the result are history positions.
 */
export function findDivergence(left: readonly MessageRecord[], right: readonly MessageRecord[], offset = 0): Divergence {
  const length = Math.min(left.length, right.length);
  let index = 0;
  while (index < length && sameRecord(left[index], right[index])) index += 1;
  return {
    commonPrefix: offset + index,
    left: left[index] ?? null,
    right: right[index] ?? null,
    identical: index === left.length && index === right.length,
  };
}

/** Root-first path of branches to `branchId`; empty when the tree does not hold it. */
export function branchPath(roots: readonly BranchTreeNode[], branchId: string): BranchTreeNode[] {
  const byId = new Map(flattenBranchTree(roots).map((branch) => [branch.id, branch]));
  const path: BranchTreeNode[] = [];
  for (let branch = byId.get(branchId); branch; branch = branch.parentId === null ? undefined : byId.get(branch.parentId)) path.unshift(branch);
  return path;
}

/** What two branches share by lineage: their nearest common ancestor and how many of its messages both inherit. */
export interface SharedLineage {
  ancestor: BranchTreeNode;
  /** Positions below this are the same stored rows on both sides. */
  sharedPrefix: number;
}

/** How many of `ancestor`'s messages the branch at the end of `below` (the path under it) inherits: fork points narrow down the chain. */
function inheritedFrom(ancestor: BranchTreeNode, below: readonly BranchTreeNode[]): number {
  return below.reduce((visible, branch) => Math.min(visible, branch.forkPosition ?? 0), ancestor.length);
}

/** The nearest common ancestor of two branches and the prefix both inherit from it; null when they share no root. */
export function sharedLineage(roots: readonly BranchTreeNode[], leftId: string, rightId: string): SharedLineage | null {
  const left = branchPath(roots, leftId);
  const right = branchPath(roots, rightId);
  let common = 0;
  while (common < left.length && common < right.length && left[common].id === right[common].id) common += 1;
  if (common === 0) return null;
  const ancestor = left[common - 1];
  return { ancestor, sharedPrefix: Math.min(inheritedFrom(ancestor, left.slice(common)), inheritedFrom(ancestor, right.slice(common))) };
}
