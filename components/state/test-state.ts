import type { ArtifactEntry, CheckpointEntry, OffloadedEntry, SummaryEntry } from "@/lib/client";
import type { BranchRecord } from "@/lib/db";
import type { ContextNode } from "@/lib/playground/protocol";
import type { BranchStateData } from "./state-model";

const at = "2026-03-09T10:00:00.000Z";
const branch = (id: string, parentId: string | null, forkPosition: number | null, length: number): BranchRecord => ({
  id,
  conversationId: "c1",
  name: id,
  parentId,
  forkPosition,
  length,
  createdAt: at,
});

const summary = (id: string, branchId: string, fromPosition: number, toPosition: number, inherited: boolean): SummaryEntry => ({
  id,
  branchId,
  fromPosition,
  toPosition,
  text: "…",
  tokens: 80,
  extendsId: null,
  createdAt: at,
  inherited,
});
const checkpoint = (id: string, branchId: string, version: number, messageCount: number, inherited: boolean): CheckpointEntry => ({
  id,
  branchId,
  version,
  values: {},
  tokenUsage: {},
  artifactRefs: [],
  metadata: null,
  messageCount,
  summaryId: null,
  createdAt: at,
  inherited,
});

/** `retry` forked from `main` at 17: one summary and checkpoint inherited, one of each own, an inherited handle, an own artifact. */
export const RETRY_STATE: BranchStateData = {
  ancestry: [
    { branch: branch("main", null, null, 40), visibleUntil: 17 },
    { branch: branch("retry", "main", 17, 30), visibleUntil: null },
  ],
  summaries: [summary("s1", "main", 0, 12, true), summary("s2", "retry", 12, 24, false)],
  checkpoints: [checkpoint("c1", "main", 0, 16, true), checkpoint("c2", "retry", 0, 28, false)],
  offloaded: [
    { id: "o1", branchId: "main", handle: "off_ab12", kind: "tool_result", position: 5, size: 30_000, createdAt: at, inherited: true } satisfies OffloadedEntry,
  ],
  artifacts: [
    {
      id: "a1",
      branchId: "retry",
      toolCallId: "call_1",
      toolName: "search_flights",
      summary: "…",
      size: 9_000,
      tokens: 2_000,
      position: 20,
      createdAt: at,
      inherited: false,
    } satisfies ArtifactEntry,
  ],
};

/** The worker's contexts after run 3: history local in the run (shadowing the conversation's), title inherited. */
export const RUN_CONTEXTS: ContextNode[] = [
  {
    taskId: "conversation",
    entries: [
      { key: "history", local: true, shadows: false, summary: "30 messages" },
      { key: "title", local: true, shadows: false, summary: '"Trip"' },
    ],
  },
  {
    taskId: "run 3",
    parent: "conversation",
    entries: [
      { key: "history", local: true, shadows: true, summary: "22 messages" },
      { key: "offloaded_messages", local: true, shadows: false, summary: "2 handles" },
      { key: "title", local: false, shadows: false, summary: '"Trip"' },
    ],
  },
];
