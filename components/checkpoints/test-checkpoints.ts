import type { CheckpointEntry } from "@/lib/client";
import type { JsonObject } from "@/lib/db";

/** A checkpoint as the API lists it; values shaped like lib/memory's. */
export function checkpoint(
  id: string,
  options: {
    branchId?: string;
    version: number;
    messageCount: number;
    context: number;
    inherited?: boolean;
    createdAt: string;
    values?: JsonObject;
    reason?: string;
  },
): CheckpointEntry {
  return {
    id,
    branchId: options.branchId ?? "main",
    version: options.version,
    values: options.values ?? { summary: { toPosition: options.messageCount - 4 }, needs_summary: false },
    tokenUsage: { history: options.context * 3, context: options.context, saved: options.context * 2 },
    artifactRefs: [],
    metadata: { source: "lib/memory", reason: options.reason ?? "threshold" },
    messageCount: options.messageCount,
    summaryId: `s-${id}`,
    createdAt: options.createdAt,
    inherited: options.inherited ?? false,
  };
}

export const BRANCH_NAMES = { main: "main", retry: "retry" };

/** main v0, v1 inherited into retry, retry's own v0 and v1. */
export const CHECKPOINTS: CheckpointEntry[] = [
  checkpoint("m0", { version: 0, messageCount: 12, context: 900, inherited: true, createdAt: "2026-03-09T10:00:00.000Z" }),
  checkpoint("m1", { version: 1, messageCount: 20, context: 1400, inherited: true, createdAt: "2026-03-09T10:05:00.000Z" }),
  checkpoint("r0", { branchId: "retry", version: 0, messageCount: 26, context: 1100, createdAt: "2026-03-09T11:00:00.000Z", reason: "forced" }),
  checkpoint("r1", { branchId: "retry", version: 1, messageCount: 34, context: 1700, createdAt: "2026-03-09T11:30:00.000Z" }),
];
