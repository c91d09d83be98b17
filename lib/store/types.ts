import type { HistoryRepair, Message, ToolDefinition } from "@/lib/context";
import type { BranchRecord, BranchTreeNode, ConversationRecord, MessageRecord } from "@/lib/db";
import type { OffloadMarker } from "@/lib/import";
import type { ModelEntry } from "@/lib/models";
import type { RunResult } from "@/lib/playground/protocol";
import type { ResolvedSettings, Settings } from "@/lib/settings";
import type { AutomationMode, CacheTtl, ComparedPolicy, CompareProgress, CompareResult } from "@/lib/context";
import type { EncodingName } from "@/lib/context";
import type { PlaygroundPipeline } from "./runtime";

export type LoadStatus = "empty" | "loading" | "ready" | "error";
export type SaveStatus = "idle" | "pending" | "saving" | "saved" | "error";
/** The loaded conversation with marks, or the processed history the model would get. */
export type HistoryView = "before" | "after";
export const PANEL_TABS = ["pipeline", "handles", "state", "branches", "checkpoints", "prompt", "calls", "compare"] as const;
export type PanelTab = (typeof PANEL_TABS)[number];
export type Theme = "light" | "dark";
export type Dialog = "shortcuts" | null;

/** What the workspace page hands the store: one conversation on one branch, as stored. */
export interface ConversationInput {
  conversation: ConversationRecord;
  branch: BranchRecord;
  /** The branch's stored history; with `partial`, only its first messages (the page's first screen). */
  records: MessageRecord[];
  tree?: BranchTreeNode[];
  /** `records` are the first of the branch's `branch.length` messages: the pipeline fetches the whole history when it loads. */
  partial?: boolean;
  /** The branch's first result, built by the server: shown until the pipeline's own first run replaces it. */
  result?: RunResult;
}

export interface ConversationSlice {
  conversation: ConversationRecord | null;
  /** The branch's stored messages; empty while `partial`. */
  records: MessageRecord[];
  /** Only the first screen of the branch is here yet (`messages`, `tokens`, `positions`); the load brings the rest. */
  partial: boolean;
  /** The messages the pipeline runs on (tool pairs repaired); what the conversation view shows "before". */
  messages: Message[];
  /** Per entry of `messages`: its token count. */
  tokens: number[];
  /** Per entry of `messages`: its position in the branch's stored history. */
  positions: number[];
  tools: ToolDefinition[] | undefined;
  repairs: HistoryRepair[];
  /** Offload markers other engines (and ours) left in the loaded messages. */
  offloadMarkers: OffloadMarker[];
  loadStatus: LoadStatus;
  loadError: string | null;
  /** Takes a stored conversation on a branch, hands it to the worker and runs the pipeline. */
  setConversation(input: ConversationInput): Promise<void>;
  /** Loads the current branch again (after a compaction wrote a summary, say): its memory is read anew. */
  reloadBranch(): Promise<void>;
  /** Loads another branch of the same conversation through the API. */
  switchBranch(branchId: string): Promise<void>;
  /**
   * Messages recorded on a branch meanwhile (live updates): the current branch takes those past its
   * cursor and runs again, reading first any it missed (LV-LC2, LV-LC3 in lib/live/README.md).
   */
  appendRecords(branchId: string, branchLength: number, records: MessageRecord[]): Promise<void>;
  /** Reads the shown branch past its cursor and shows what was recorded since (LV-LC4). */
  syncBranch(): Promise<void>;
  /** Reads the conversation: its branch tree, and its tools, which reload the branch when they changed (LV-LC5). */
  syncConversation(): Promise<void>;
  /** A live event's conversation: when its tools are not the shown ones, reads the conversation (the event may be older than the shown state). */
  noticeConversation(conversation: ConversationRecord): Promise<void>;
  /** The live stream is open (again): reads what it may have missed, and follows branch switches from now on (LV-LC1, LV-LC4). */
  catchUp(): Promise<void>;
  /** The live stream is closed. */
  stopFollowing(): void;
}

export interface SettingsSlice {
  settings: Settings;
  /** The settings made concrete with the model catalogue: what requests are built with. */
  resolved: ResolvedSettings;
  /** The model catalogue: built-in entries with the users' over them. */
  catalogue: ModelEntry[];
  /** A user turn typed but not sent: every view shows the request as if it came next. */
  nextTurn: string;
  saveStatus: SaveStatus;
  saveError: string | null;
  /** The settings as stored for the conversation (what a save last wrote, or what was loaded). */
  savedSettings: Settings;
  /** Settings before each change, oldest first: `undo` takes the last. */
  past: Settings[];
  /** Settings undone, the next `redo` last. */
  future: Settings[];
  /** Trying settings out: changes run the pipeline but are not saved until `saveTry`. */
  trying: boolean;
  /** Takes whole new settings. */
  replaceSettings(settings: Settings): void;
  applyMode(mode: AutomationMode): void;
  setNextTurn(text: string): void;
  /** Back to the settings before the last change (a slider drag is one change). */
  undo(): void;
  redo(): void;
  /** Starts trying settings out: nothing is saved until `saveTry`. */
  startTry(): void;
  /** Saves the tried settings and leaves the try state. */
  saveTry(): void;
  /** Leaves the try state with the saved settings back. */
  discardTry(): void;
}

export interface StepHistories {
  revision: number;
  step: number;
  before: Message[];
  after: Message[];
}

export interface RunSlice {
  /** Whether a pipeline worker is attached (the provider attaches one in the browser). */
  pipelineReady: boolean;
  /** The encoding whose tokenizer the worker is loading, or null: counts wait for it. */
  tokenizerLoading: EncodingName | null;
  result: RunResult | null;
  running: boolean;
  runError: string | null;
  /** The trace step whose diff is shown. */
  selectedStep: number | null;
  stepHistories: StepHistories | null;
  view: HistoryView;
  /** Re-runs the pipeline with the current settings (runs coalesce in the worker client). */
  requestRun(): Promise<void>;
  selectStep(step: number | null): void;
  /** Moves the step selection by `delta`, wrapping at neither end. */
  moveStep(delta: number): void;
  setView(view: HistoryView): void;
  toggleView(): void;
  /** What `reload_offloaded` returns for a handle of the last run. */
  reloadHandle(handle: string): Promise<string>;
  /** Each text's tokens, counted as the last run counts (the pipeline worker's tokenizer). */
  countTexts(texts: string[]): Promise<number[]>;
  /** Hands the store a pipeline (the Web Worker's client); loads the conversation into it. Returns the detach. */
  attachPipeline(pipeline: PlaygroundPipeline): () => void;
}

export interface UiSlice {
  /** `message:call` of the hovered tool call (message index in the shown list, call index in it). */
  hoveredCall: string | null;
  /** Index of the selected message in the shown list (`messages` before, `result.history` after). */
  selectedMessage: number | null;
  tab: PanelTab;
  /** The offload handle the handle viewer shows. */
  selectedHandle: string | null;
  theme: Theme;
  dialog: Dialog;
  setHoveredCall(key: string | null): void;
  /** Shows a handle in the Handles tab. */
  openHandle(handle: string | null): void;
  selectMessage(index: number | null): void;
  moveSelection(delta: number): void;
  setTab(tab: PanelTab): void;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  openDialog(dialog: Exclude<Dialog, null>): void;
  closeDialog(): void;
}

export interface BranchesSlice {
  tree: BranchTreeNode[];
  branch: BranchRecord | null;
  forking: boolean;
  forkError: string | null;
  /** Bumped when stored data changed behind the views (a fork, a compaction, a checkpoint): panels that load from the API reload. */
  dataRevision: number;
  bumpDataRevision(): void;
  /** Bumped when the proxy recorded a model call of the conversation: the calls view and the failed-call markers reload. */
  callsRevision: number;
  bumpCallsRevision(): void;
  refreshBranches(): Promise<void>;
  /** Forks the current branch: the child inherits the first `position` stored messages; then switches to it. */
  forkAt(position: number, name?: string): Promise<BranchRecord | null>;
  /** Forks right after the selected message (it and everything before it are inherited). */
  forkAtSelection(name?: string): Promise<BranchRecord | null>;
}

export interface CompareSlice {
  /** The last finished comparison: raw first, then the policies. */
  comparison: CompareResult | null;
  compareProgress: CompareProgress | null;
  comparing: boolean;
  compareError: string | null;
  /** Replays the loaded conversation under raw and up to 3 policies in the pipeline worker; a new one stops the one under way. */
  /** Replays raw and the policies; `cacheTtl` prices every cache write at that lifetime instead of the model's first (a what-if). */
  startCompare(policies: ComparedPolicy[], cacheTtl?: CacheTtl): Promise<void>;
  /** Stops the comparison under way; the last finished one stays. */
  cancelCompare(): void;
}

export type PlaygroundState = ConversationSlice & SettingsSlice & RunSlice & UiSlice & BranchesSlice & CompareSlice;
