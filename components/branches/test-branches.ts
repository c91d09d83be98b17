import type { Message } from "@/lib/context/light";
import type { BranchTreeNode, MessageRecord } from "@/lib/db";

let clock = 0;

/** A branch tree node; `children` link up their `parentId`. */
export function branchNode(id: string, options: { name?: string; length: number; forkPosition?: number; children?: BranchTreeNode[] }): BranchTreeNode {
  const node: BranchTreeNode = {
    id,
    conversationId: "c1",
    name: options.name ?? id,
    parentId: null,
    forkPosition: options.forkPosition ?? null,
    length: options.length,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString(),
    children: options.children ?? [],
  };
  for (const child of node.children) child.parentId = id;
  return node;
}

/** Stored messages `from`..`to - 1` of a branch: user/assistant turns whose text names the branch that wrote them. */
export function records(branchId: string, from: number, to: number, text: (position: number) => string = (position) => `message ${position}`): MessageRecord[] {
  return Array.from({ length: to - from }, (_, index) => {
    const position = from + index;
    const message: Message = position % 2 === 0 ? { role: "user", content: text(position) } : { role: "assistant", content: text(position) };
    return { id: `${branchId}:${position}`, branchId, position, tokens: 5, createdAt: "2026-01-01T00:00:00.000Z", metadata: null, message };
  });
}
