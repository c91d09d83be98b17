import { hierarchy, type HierarchyNode } from "d3-hierarchy";
import type { BranchTreeNode } from "@/lib/db";

/** One branch placed in the indented tree: a row of its own, indented by depth. */
export interface BranchRow {
  branch: BranchTreeNode;
  /** 0 for a root branch. */
  depth: number;
  /** Row index, top to bottom (pre-order: a parent above its children). */
  row: number;
  /** Row of the parent branch, null for a root. */
  parentRow: number | null;
  /** Messages written on this branch, past what it inherits. */
  ownMessages: number;
  /** Centre of the branch's dot, in pixels. */
  x: number;
  y: number;
}

/** An elbow from a parent's dot down and across to a child's. */
export interface BranchLink {
  parentId: string;
  childId: string;
  path: string;
}

export interface BranchLayout {
  rows: BranchRow[];
  links: BranchLink[];
  width: number;
  height: number;
}

export interface BranchLayoutOptions {
  rowHeight?: number;
  indent?: number;
  /** Where a row's dot sits below the row's top (level with the branch name); default half the row. */
  dotOffset?: number;
}

type Datum = { branch: BranchTreeNode | null; children: Datum[] };

const toDatum = (branch: BranchTreeNode): Datum => ({ branch, children: branch.children.map(toDatum) });

/** Children read oldest fork point first, then by creation, so the tree reads top to bottom as the history grew. */
function compareBranches(left: HierarchyNode<Datum>, right: HierarchyNode<Datum>): number {
  const a = left.data.branch;
  const b = right.data.branch;
  if (!a || !b) return 0;
  return (a.forkPosition ?? 0) - (b.forkPosition ?? 0) || a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name);
}

/**
 * Lays the branch tree out as an indented tree (d3-hierarchy, pre-order):
 * each branch a row, children below and to the right of their parent, so
 * names never overlap in a narrow panel. Several roots share one column.
 */
export function layoutBranchTree(roots: readonly BranchTreeNode[], options: BranchLayoutOptions = {}): BranchLayout {
  const rowHeight = options.rowHeight ?? 44;
  const indent = options.indent ?? 18;
  const dotOffset = options.dotOffset ?? rowHeight / 2;
  // A synthetic top node holds the roots (a conversation normally has one).
  const top = hierarchy<Datum>({ branch: null, children: roots.map(toDatum) }, (datum) => datum.children).sort(compareBranches);
  const rows: BranchRow[] = [];
  const rowOf = new Map<HierarchyNode<Datum>, number>();
  top.eachBefore((node) => {
    const branch = node.data.branch;
    if (!branch) return;
    const row = rows.length;
    rowOf.set(node, row);
    const depth = node.depth - 1;
    const parentRow = node.parent ? (rowOf.get(node.parent) ?? null) : null;
    const ownMessages = branch.length - (branch.forkPosition ?? 0);
    rows.push({ branch, depth, row, parentRow, ownMessages, x: indent * depth + indent / 2, y: row * rowHeight + dotOffset });
  });
  const links: BranchLink[] = [];
  for (const row of rows) {
    if (row.parentRow === null) continue;
    const parent = rows[row.parentRow];
    links.push({ parentId: parent.branch.id, childId: row.branch.id, path: `M${parent.x},${parent.y} V${row.y} H${row.x}` });
  }
  const depth = rows.reduce((deepest, row) => Math.max(deepest, row.depth), 0);
  return { rows, links, width: indent * (depth + 1), height: rows.length * rowHeight };
}

/** Every branch of the tree, pre-order. */
export function flattenBranchTree(roots: readonly BranchTreeNode[]): BranchTreeNode[] {
  const all: BranchTreeNode[] = [];
  const visit = (branch: BranchTreeNode) => {
    all.push(branch);
    branch.children.forEach(visit);
  };
  roots.forEach(visit);
  return all;
}

/** "forked at message 17" for a child, "root" for a root. */
export function forkLabel(branch: Pick<BranchTreeNode, "forkPosition" | "parentId">): string {
  if (branch.parentId === null || branch.forkPosition === null) return "root";
  return `forked at message ${branch.forkPosition}`;
}
