import type { EncodingName, Message, ToolDefinition } from "@/lib/context";
import type { ConversationDetail, HistoryRange } from "@/lib/client";
import type { BranchRecord, BranchTreeNode, MessageRecord } from "@/lib/db";
import type { CompareProgress, CompareResult } from "@/lib/context/light";
import type { BranchOpening } from "@/lib/playground/page-result";
import type { CompareInput, LoadedConversation, OpenedBranch, RunInput, RunResult } from "@/lib/playground/protocol";
import type { MemorySnapshot } from "@/lib/request";
import type { Settings } from "@/lib/settings";

/** The pipeline the store drives: `PipelineClient` (a Web Worker) in the browser, a `PipelineHost` or a fake in tests. */
export interface PlaygroundPipeline {
  /** `encoding`: what the returned token counts use. */
  load(title: string, messages: Message[], tools?: ToolDefinition[], encoding?: EncodingName, snapshot?: MemorySnapshot): Promise<LoadedConversation>;
  /** Fetches a branch's stored history itself (the worker: off the main thread) and loads it; without it the store fetches through the services. */
  open?(branchId: string, title: string, tools?: ToolDefinition[], encoding?: EncodingName): Promise<OpenedBranch>;
  /** Resolves `undefined` when newer input superseded the run. Requests are taken in order: a run asked for right after a load runs on it. */
  run(input: RunInput): Promise<RunResult | undefined>;
  stepHistories(step: number): Promise<{ before: Message[]; after: Message[] }>;
  reload(handle: string): Promise<string>;
  /** Each text's tokens, counted as the last run counts. */
  countTexts?(texts: string[]): Promise<number[]>;
  /** Replays the loaded conversation under raw and the policies (the worker's client runs it off the main thread). */
  compare?(input: CompareInput, onProgress?: (progress: CompareProgress) => void): { result: Promise<CompareResult>; cancel(): void };
  /** Follows the tokenizer being loaded (null: none), from its current state; returns the unsubscribe function. */
  onTokenizer?(listener: (loading: EncodingName | null) => void): () => void;
}

/** The HTTP API calls the store makes; the provider adapts the typed API client to this. */
export interface PlaygroundServices {
  saveSettings(conversationId: string, settings: Settings): Promise<void>;
  /** What a branch opens with: the branch, its conversation, its first screen and the server's first result. */
  openBranch(branchId: string): Promise<BranchOpening>;
  /** The branch's history, or the `[from, to)` slice of it (`to` left out: up to its end). */
  getBranchMessages(branchId: string, range?: HistoryRange): Promise<MessageRecord[]>;
  /** The conversation as stored, with its branch tree. */
  getConversation(conversationId: string): Promise<ConversationDetail>;
  /** The branch's persisted memory (summary chain, covered system messages, artifact outlines). */
  getBranchMemory(branchId: string): Promise<MemorySnapshot>;
  getBranchTree(conversationId: string): Promise<BranchTreeNode[]>;
  forkBranch(branchId: string, position: number, name?: string): Promise<BranchRecord>;
}

/** What the slices share besides state: the pipeline, the services and the bookkeeping of async work. */
export interface PlaygroundRuntime {
  pipeline: PlaygroundPipeline | null;
  services: PlaygroundServices | null;
  /** Settings are saved this long after the last change. */
  saveDelayMs: number;
  saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The field the last undo step changed, while more changes to it still join that step (PO-6). */
  historyField: string | undefined;
  historyTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every load: work started for an older load is dropped when it returns. */
  loadToken: number;
  /** The token whose conversation the pipeline holds. */
  pipelineToken: number;
  runsInFlight: number;
  /** The load in progress, if any. */
  loading: Promise<void> | null;
  /** Stops the comparison under way. */
  cancelCompare: (() => void) | undefined;
  /** Bumped by every comparison started: an older one's answer is dropped. */
  compareToken: number;
  /** Live changes to the shown branch and conversation, applied one after another (LV-LC3). */
  liveQueue: Promise<unknown>;
  /** A live stream is open: what a branch switch may have missed is read after it (LV-LC4). */
  following: boolean;
  /** The shown history is still being read: read past the cursor once it is here (LV-LC4). */
  syncPending: boolean;
}

export function createRuntime(options: { pipeline?: PlaygroundPipeline; services?: PlaygroundServices; saveDelayMs?: number }): PlaygroundRuntime {
  return {
    pipeline: options.pipeline ?? null,
    services: options.services ?? null,
    saveDelayMs: options.saveDelayMs ?? 600,
    saveTimer: undefined,
    historyField: undefined,
    historyTimer: undefined,
    loadToken: 0,
    pipelineToken: -1,
    runsInFlight: 0,
    loading: null,
    cancelCompare: undefined,
    compareToken: 0,
    liveQueue: Promise.resolve(),
    following: false,
    syncPending: false,
  };
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
