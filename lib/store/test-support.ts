// Fixtures the store's and the workspace's tests share: a real tau-bench conversation as stored rows, and a pipeline on the real PipelineHost.
import fs from "node:fs";
import path from "node:path";
import type { Message, ToolDefinition } from "@/lib/context";
import type { BranchRecord, ConversationRecord, MessageRecord } from "@/lib/db";
import { PipelineHost } from "@/lib/playground/pipeline-host";
import type { PlaygroundPipeline } from "./runtime";

/** Real tau-bench airline trajectories (MIT; tests/fixtures/README.md). */
export const sampleTrajectories = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8"),
) as {
  traj: Message[];
}[];

export function sampleConversation(tools: ToolDefinition[] | null = null): ConversationRecord {
  return {
    id: "c1",
    title: "task 0",
    source: "tau-bench",
    settings: {},
    tools,
    recordKey: null,
    origin: null,
    sessionKey: null,
    parentId: null,
    parentCallId: null,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
  };
}

/** Branch `b1` ("main") of conversation `c1`, with `length` messages. */
export function sampleBranch(length: number): BranchRecord {
  return { id: "b1", conversationId: "c1", name: "main", parentId: null, forkPosition: null, length, createdAt: "2025-01-01T00:00:00.000Z" };
}

/** Messages as branch `b1` stores them. */
export function sampleRecords(messages: readonly Message[]): MessageRecord[] {
  return messages.map((message, position) => ({
    id: `m${position}`,
    branchId: "b1",
    position,
    tokens: 1,
    createdAt: "2025-01-01T00:00:00.000Z",
    metadata: null,
    message,
  }));
}

/** The store's pipeline on a PipelineHost in this thread, comparisons included. */
export function hostPipeline(): PlaygroundPipeline {
  const host = new PipelineHost();
  return {
    load: async (...args) => host.load(...args),
    run: async (input) => host.run(input),
    stepHistories: async (step) => host.stepHistories(step),
    reload: async (handle) => host.reload(handle),
    countTexts: async (texts) => host.countTexts(texts),
    compare: (input, onProgress) => {
      const controller = new AbortController();
      return { result: host.compare(input, { signal: controller.signal, onProgress }), cancel: () => controller.abort() };
    },
  };
}
