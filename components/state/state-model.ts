import type { ArtifactEntry, CheckpointEntry, OffloadedEntry, SummaryEntry } from "@/lib/client";
import type { AncestryEntry } from "@/lib/db";
import type { ContextNode } from "@/lib/playground/protocol";

/** Own: written in this context. Inherited: read from an ancestor. Shadows: own, and hides an ancestor's value of the same key. */
export type StateOrigin = "own" | "inherited" | "shadows";

export interface StateItem {
  id: string;
  label: string;
}

export interface StateTreeEntry {
  key: string;
  origin: StateOrigin;
  /** One line: "3 summaries", "26 messages", "from main". */
  summary: string;
  /** The rows behind a branch entry, listed when it is expanded. */
  items?: StateItem[];
}

export interface StateTreeNode {
  id: string;
  kind: "branch" | "context";
  label: string;
  /** A line under the label: "forked at message 17; visible to retry before message 17". */
  note?: string;
  current?: boolean;
  entries: StateTreeEntry[];
  children: StateTreeNode[];
}

/** What the branch sees of its stored state, as the API lists it (own and inherited rows). */
export interface BranchStateData {
  /** Root first, the branch itself last. */
  ancestry: AncestryEntry[];
  summaries: SummaryEntry[];
  checkpoints: CheckpointEntry[];
  offloaded: OffloadedEntry[];
  artifacts: ArtifactEntry[];
}

const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
const range = (from: number, to: number) => (to - from <= 1 ? `message ${from}` : `messages ${from}–${to - 1}`);

type Row = { id: string; branchId: string };
interface Resource<T extends Row> {
  key: string;
  one: string;
  many?: string;
  rows: readonly T[];
  label: (row: T) => string;
  /** Own rows hide inherited ones (the latest checkpoint is what a branch resumes from). */
  shadowing?: boolean;
}

/** Erases a resource's row type once its labeller is attached. */
const resource = <T extends Row>(described: Resource<T>) => described as unknown as Resource<Row>;

function resources(data: BranchStateData): Resource<Row>[] {
  return [
    resource<SummaryEntry>({
      key: "summaries",
      one: "summary",
      many: "summaries",
      rows: data.summaries,
      label: (summary) => `${range(summary.fromPosition, summary.toPosition)} · ${plural(summary.tokens, "token")}`,
    }),
    resource<CheckpointEntry>({
      key: "checkpoints",
      one: "checkpoint",
      rows: data.checkpoints,
      shadowing: true,
      label: (checkpoint) => `v${checkpoint.version} · covers ${plural(checkpoint.messageCount, "message")}`,
    }),
    resource<OffloadedEntry>({
      key: "offloaded",
      one: "handle",
      rows: data.offloaded,
      label: (content) => `${content.handle} · ${content.kind} · ${plural(content.size, "character")} · message ${content.position}`,
    }),
    resource<ArtifactEntry>({
      key: "artifacts",
      one: "artifact",
      rows: data.artifacts,
      label: (artifact) => `${artifact.toolName ?? "tool"} result at message ${artifact.position} · ${plural(artifact.size, "character")}`,
    }),
  ];
}

function branchEntries(data: BranchStateData, branchId: string, current: boolean, names: Map<string, string>): StateTreeEntry[] {
  const entries: StateTreeEntry[] = [];
  for (const resource of resources(data)) {
    const own = resource.rows.filter((row) => row.branchId === branchId);
    const items = (rows: readonly Row[]) =>
      rows.map((row) => ({
        id: row.id,
        label: current && row.branchId !== branchId ? `${resource.label(row)} (from ${names.get(row.branchId) ?? row.branchId})` : resource.label(row),
      }));
    const inherited = current ? resource.rows.filter((row) => row.branchId !== branchId) : [];
    if (own.length > 0) {
      const shadows = resource.shadowing === true && inherited.length > 0;
      entries.push({
        key: resource.key,
        origin: shadows ? "shadows" : "own",
        summary: plural(own.length, resource.one, resource.many) + (shadows ? `; the latest shadows ${plural(inherited.length, "inherited one")}` : ""),
        items: items(own),
      });
    }
    if (inherited.length > 0) {
      const from = [...new Set(inherited.map((row) => names.get(row.branchId) ?? row.branchId))].join(", ");
      entries.push({
        key: resource.key,
        origin: "inherited",
        summary: `${plural(inherited.length, resource.one, resource.many)} from ${from}`,
        items: items(inherited),
      });
    }
  }
  return entries;
}

function contextNodes(contexts: readonly ContextNode[]): StateTreeNode[] {
  const nodes = new Map<string, StateTreeNode>();
  for (const context of contexts) {
    nodes.set(context.taskId, {
      id: `context:${context.taskId}`,
      kind: "context",
      label: context.taskId,
      note: context.parent ? `forked from ${context.parent}` : "the loaded history",
      entries: context.entries.map((entry) => ({
        key: entry.key,
        origin: entry.shadows ? "shadows" : entry.local ? "own" : "inherited",
        summary: entry.summary,
      })),
      children: [],
    });
  }
  const roots: StateTreeNode[] = [];
  for (const context of contexts) {
    const node = nodes.get(context.taskId)!;
    const parent = context.parent === undefined ? undefined : nodes.get(context.parent);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/**
 * The context-state tree: the branch's lineage (root branch first), each
 * branch with the stored state it contributes (own on the branch that wrote
 * it, inherited on the current branch, which sees it up to its fork point),
 * and the worker's live contexts (`conversation` → `run N`) under the
 * current branch. Either part may be missing.
 */
export function buildStateTree(data: BranchStateData | null, contexts: readonly ContextNode[] = []): StateTreeNode[] {
  const live = contextNodes(contexts);
  if (!data || data.ancestry.length === 0) return live;
  const names = new Map(data.ancestry.map((entry) => [entry.branch.id, entry.branch.name]));
  const currentId = data.ancestry[data.ancestry.length - 1].branch.id;
  let parent: StateTreeNode | null = null;
  let top: StateTreeNode | null = null;
  for (const { branch, visibleUntil } of data.ancestry) {
    const current = branch.id === currentId;
    const fork = branch.parentId === null ? "root branch" : `forked at message ${branch.forkPosition ?? 0}`;
    const visibility = current ? `${plural(branch.length, "message")}` : `${names.get(currentId)} sees it before message ${visibleUntil ?? branch.length}`;
    const node: StateTreeNode = {
      id: `branch:${branch.id}`,
      kind: "branch",
      label: branch.name,
      note: `${fork}; ${visibility}`,
      current,
      entries: branchEntries(data, branch.id, current, names),
      children: [],
    };
    if (parent) parent.children.push(node);
    else top = node;
    parent = node;
  }
  parent!.children.push(...live);
  return top ? [top] : live;
}

/** How many entries of each origin the tree holds. */
export function countOrigins(nodes: readonly StateTreeNode[]): Record<StateOrigin, number> {
  const counts: Record<StateOrigin, number> = { own: 0, inherited: 0, shadows: 0 };
  const visit = (node: StateTreeNode) => {
    for (const entry of node.entries) counts[entry.origin] += 1;
    node.children.forEach(visit);
  };
  nodes.forEach(visit);
  return counts;
}
