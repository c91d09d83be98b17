import type { CallSummary } from "@/lib/calls/types";
import type { BranchTreeNode } from "@/lib/db";

function flatten(tree: readonly BranchTreeNode[], into = new Map<string, BranchTreeNode>()): Map<string, BranchTreeNode> {
  for (const node of tree) {
    into.set(node.id, node);
    flatten(node.children, into);
  }
  return into;
}

/**
 * Failed calls the open branch's history shows, by the position they were
 * made at (CA-3: before the message at that index; at the history's length,
 * after its last message). A call on an ancestor shows when it was made
 * within the part of the history the branch inherits.
 */
export function failedCallsByPosition(calls: readonly CallSummary[], branchId: string, tree: readonly BranchTreeNode[]): Map<number, CallSummary[]> {
  const nodes = flatten(tree);
  // The branch and each ancestor, with the position up to which the branch sees its history.
  const visible = new Map<string, number>([[branchId, Number.POSITIVE_INFINITY]]);
  let node = nodes.get(branchId);
  let limit = Number.POSITIVE_INFINITY;
  while (node?.parentId) {
    limit = Math.min(limit, node.forkPosition ?? 0);
    visible.set(node.parentId, limit);
    node = nodes.get(node.parentId);
  }
  const byPosition = new Map<number, CallSummary[]>();
  for (const call of calls) {
    const until = visible.get(call.branchId);
    if (call.outcome !== "failed" || call.requestMessages === null || until === undefined || call.requestMessages > until) continue;
    const list = byPosition.get(call.requestMessages);
    if (list) list.push(call);
    else byPosition.set(call.requestMessages, [call]);
  }
  return byPosition;
}
