import type { BranchTreeNode } from "@/lib/db";

export interface BranchOption {
  id: string;
  name: string;
  depth: number;
  length: number;
  forkPosition: number | null;
}

/** The branch tree in depth-first order with each branch's depth, for a flat picker. */
export function flattenBranches(tree: readonly BranchTreeNode[]): BranchOption[] {
  const options: BranchOption[] = [];
  const visit = (node: BranchTreeNode, depth: number) => {
    options.push({ id: node.id, name: node.name, depth, length: node.length, forkPosition: node.forkPosition });
    for (const child of node.children) visit(child, depth + 1);
  };
  for (const root of tree) visit(root, 0);
  return options;
}
