import type {
  CacheRules,
  CacheTtl,
  ComparedPolicy,
  CompareProgress,
  CompareResult,
  EncodingName,
  HistoryRepair,
  Message,
  MessageEffect,
  TokenBudgetTrimmed,
  TokenPrices,
  ToolDefinition,
} from "@/lib/context/light";
import type { MessageRecord } from "@/lib/db";
import type { ImportFormat, ImportIssue, ImportWarning, OffloadMarker } from "@/lib/import";
import type { MemorySnapshot, RequestView, StepSummary } from "@/lib/request";
import type { ResolvedSettings } from "@/lib/settings";
import type { WireRunResult } from "./run-patch";

export type { StepSummary };

/** An offloaded message the run produced. */
export interface OffloadedEntry {
  handle: string;
  /** Index of the message in the conversation as loaded. */
  origin: number;
  characters: number;
  tokens: number;
}

/** What a processor did to one message of the loaded conversation. */
export interface MessageMark {
  processor: string;
  kind: MessageEffect["kind"];
  handle?: string;
}

/** One key of a context's state, as the context-state tree shows it. */
export interface StateEntry {
  key: string;
  /** Written in this context (else inherited from an ancestor). */
  local: boolean;
  /** Written here while an ancestor also holds it: the local value shadows the inherited one. */
  shadows: boolean;
  /** A one-line description of the value ("26 messages", "3 handles", "true"). */
  summary: string;
}

/** A context in the live tree: the conversation, and the pipeline run forked from it. */
export interface ContextNode {
  taskId: string;
  parent?: string;
  entries: StateEntry[];
}

/** What a run builds the next request with. */
export interface RunInput {
  /** The conversation's settings, resolved against the model catalogue. */
  settings: ResolvedSettings;
  /** A user turn not recorded yet (the Prompt tab's): the request is built as if it were next. */
  userTurn?: string;
}

/** One build of the loaded conversation's next request. */
export interface RunResult {
  revision: number;
  /** The request's messages: what the model would receive. */
  history: Message[];
  /** Per message of `history`: its token count. */
  tokens: number[];
  /** Per message of the loaded conversation: the index it has in `history`, or -1 when gone. */
  kept: number[];
  /** Per message of the loaded conversation: what each processor did to it, in pipeline order. */
  marks: MessageMark[][];
  steps: StepSummary[];
  /** The request besides its messages and steps: model, reply limit, tools, sections, the one budget verdict, the memory it carries. */
  request: Omit<RequestView, "messages" | "steps">;
  trimmed?: TokenBudgetTrimmed;
  offloaded: OffloadedEntry[];
  totalMs: number;
  /**
   * Per message of the loaded conversation: its tokens by this run's counter.
   * Only when that counter differs from the one the held counts were made with
   * (the first run on another model's encoding or media rule): the page takes
   * them with the result, so every count it shows changes at once.
   */
  loadedTokens?: number[];
  /** "server": built by the server for the page's first paint (the worker's own first run replaces it); absent: the worker's. */
  origin?: "server";
  /** The contexts of this run, root first. */
  contexts: ContextNode[];
}

export interface LoadedConversation {
  title: string;
  format: ImportFormat;
  messages: Message[];
  tools?: ToolDefinition[];
  tokens: number[];
  warnings: ImportWarning[];
  repairs: HistoryRepair[];
  offloadMarkers: OffloadMarker[];
  /** How many conversations the input held; the first was loaded unless another was asked for. */
  available: number;
}

/** A branch's stored history the worker fetched itself, and the conversation it loaded from it. */
export interface OpenedBranch {
  conversation: LoadedConversation;
  /** The stored records, as `GET /api/branches/[id]/messages` gives them (their messages are those of `conversation` where no repair changed them). */
  records: MessageRecord[];
}

export type WorkerRequest =
  /** `text`: pasted text, or a file the worker reads itself, so a large one is never read on the page. */
  | { type: "parse"; id: number; text: string | Blob; filename?: string; conversation?: number }
  /** `encoding`: what the loaded messages' token counts use; cl100k_base when absent. */
  | { type: "load"; id: number; title: string; messages: Message[]; tools?: ToolDefinition[]; encoding?: EncodingName; snapshot?: MemorySnapshot }
  /** Loads an encoding's ranks now, so the first count does not wait for them. */
  | { type: "prepare"; id: number; encoding: EncodingName }
  /** Starts reading a branch's stored history (`GET /api/branches/[id]/messages`) for the `open` of it to come. */
  | { type: "prefetch"; id: number; branchId: string }
  /** Reads a branch's stored history in the worker (fetched and parsed off the page's main thread) and loads it as `load` does. */
  | { type: "open"; id: number; branchId: string; title: string; tools?: ToolDefinition[]; encoding?: EncodingName }
  | { type: "run"; id: number; input: RunInput }
  | { type: "step-histories"; id: number; step: number }
  | { type: "reload"; id: number; handle: string }
  /** Counts texts as the last run counts them (an offloaded handle's size when only its content is known). */
  | { type: "count"; id: number; texts: string[] }
  /** Replays the loaded conversation under raw and up to 3 policies; progress is posted as it goes. Runs beside other requests. */
  | { type: "compare"; id: number; input: CompareInput }
  /** Stops the comparison posted with id `target`: it answers with a cancelled error. */
  | { type: "cancel"; id: number; target: number };

/** What a comparison replays the loaded conversation with. */
export interface CompareInput {
  policies: ComparedPolicy[];
  /** The prices every run is costed with; null: no costs. */
  prices: TokenPrices | null;
  /** The model's prompt-cache rules: runs are costed with the cache model's reads and writes (CC-7, CC-8); absent: the shared prefix is read. */
  cache?: CacheRules | null;
  /** The TTL cache writes get in the runs (a what-if of 5 minutes against an hour). */
  cacheTtl?: CacheTtl;
}

export type WorkerResponse =
  | { type: "loaded"; id: number; conversation: LoadedConversation }
  | ({ type: "opened"; id: number } & OpenedBranch)
  /** `prepare` and `prefetch` have started what they ask for. */
  | { type: "started"; id: number }
  /** The result as posted: what changed since the previous one (`RunDecoder` makes it whole). */
  | { type: "result"; id: number; result: WireRunResult }
  | { type: "step-histories"; id: number; before: Message[]; after: Message[] }
  | { type: "reloaded"; id: number; handle: string; content: string }
  | { type: "counted"; id: number; tokens: number[] }
  | { type: "compare-progress"; id: number; progress: CompareProgress }
  | { type: "compared"; id: number; result: CompareResult }
  | { type: "error"; id: number; message: string; issues?: ImportIssue[]; tooLarge?: { bytes: number; limit: number }; cancelled?: boolean };
