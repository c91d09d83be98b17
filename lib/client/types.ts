import type * as z from "zod";
import type { createConversationSchema } from "@/app/api/conversations/schema";
import type { updateConversationSchema } from "@/app/api/conversations/[id]/schema";
import type { compactBranchSchema } from "@/app/api/branches/[branchId]/compact/schema";
import type { forkBranchSchema } from "@/app/api/branches/[branchId]/fork/schema";
import type { assemblePromptSchema } from "@/app/api/branches/[branchId]/prompt/schema";
import type { recordMessagesSchema } from "@/app/api/branches/[branchId]/messages/schema";
import type { createPolicySchema } from "@/app/api/policies/schema";
import type { updatePolicySchema } from "@/app/api/policies/[id]/schema";
import type {
  AncestryEntry,
  ArtifactRecord,
  BranchRecord,
  BranchTreeNode,
  CheckpointRecord,
  ConversationOverview,
  ConversationRecord,
  LibraryConversation,
  MessageRecord,
  OffloadedContentRecord,
  ImportSessionResult,
  PolicyRecord,
  SummaryRecord,
} from "@/lib/db";
import type { ValuesDiff } from "@/lib/api/diff";
import type { CompactionResult, RecordMessagesResult, RetrievalHit } from "@/lib/memory";
import type { MemorySnapshot, PromptResponse, SectionView } from "@/lib/request";
import type { ModelEntry, ModelEntryInput } from "@/lib/models";
import type { Policy, PolicyDifference } from "@/lib/policies";
import type { Settings, SettingsChanges } from "@/lib/settings";

export type { ValuesDiff, DiffValue } from "@/lib/api/diff";
export type { ImportConversationsResult, ImportedConversationResult, StoredOffloadMarker } from "@/lib/api/import";
export type { CompactionSummary, SessionOverview, SubagentSummary, UsageTotals } from "@/lib/api/session-overview";
export type { ConversationCost, CostCall, CostDifference, CostPrediction, CostTimelinePoint, CostUsage } from "@/lib/cost/types";

/** A row the branch sees, marked `inherited` when an ancestor wrote it (visible at the fork). */
export type Visible<T> = T & { inherited: boolean };

export type CheckpointEntry = Visible<CheckpointRecord>;
export type SummaryEntry = Visible<SummaryRecord>;
/** An offloaded content's header: everything but the content. */
export type OffloadedEntry = Visible<Omit<OffloadedContentRecord, "content">>;
/** An artifact's header: everything but the content. */
export type ArtifactEntry = Visible<Omit<ArtifactRecord, "content">>;
/** A checkpoint without its values, as the diff answers it. */
export type CheckpointHeader = Omit<CheckpointRecord, "values">;

/** One page of the conversation library (lib/library: LB2). */
export interface ConversationList {
  conversations: LibraryConversation[];
  /** Conversations that match, over all pages. */
  total: number;
  limit: number;
  offset: number;
  /** The offset of the next page; null on the last. */
  next: number | null;
}

export interface ConversationDetail {
  conversation: ConversationRecord;
  /** The branch tree, roots first. */
  branches: BranchTreeNode[];
}

export interface CreatedConversation {
  conversation: ConversationRecord;
  branch: BranchRecord;
  messages: MessageRecord[];
}

export interface BranchDetail {
  branch: BranchRecord;
  /** Root first, the branch itself last. */
  ancestry: AncestryEntry[];
}

export interface CheckpointDiff {
  from: CheckpointHeader;
  to: CheckpointHeader;
  diff: ValuesDiff;
}

export interface HealthResult {
  ok: boolean;
  database: string;
}

export interface ImportOptions {
  filename?: string;
  format?: string;
  title?: string;
  /** One conversation of a multi-conversation input (0-based), or "all". */
  conversation?: number | "all";
}

/** `POST /api/conversations`: the route's own schema's input. */
export type CreateConversationInput = z.input<typeof createConversationSchema>;

/** `PATCH /api/conversations/[id]`. */
export type UpdateConversationInput = z.input<typeof updateConversationSchema>;

export interface HistoryRange {
  /** First position (inclusive). */
  from?: number;
  /** Last position (exclusive, as the API reads it). */
  to?: number;
}

/** One page of a branch's history: `next` is where the following page starts, null after the last. */
export interface MessagePage {
  messages: MessageRecord[];
  next: number | null;
}

/** `POST /api/branches/[branchId]/messages`. */
export type AppendMessagesInput = z.input<typeof recordMessagesSchema>;

/** `POST /api/branches/[branchId]/fork`. */
export type ForkInput = z.input<typeof forkBranchSchema>;

/** Settings fields a call changes or overrides; `null` clears a field (back to the model's value, or off). */
export type SettingsOverrides = SettingsChanges;

/** `POST /api/branches/[branchId]/compact`. */
export type CompactInput = z.input<typeof compactBranchSchema>;

export interface CompactResult {
  /** Null when nothing was due (or nothing is older than the kept rounds). */
  compaction: CompactionResult | null;
}

export interface SearchResult {
  hits: RetrievalHit[];
}

/** `GET /api/models`. */
export interface ModelCatalogue {
  models: ModelEntry[];
  /** When the built-in figures were taken. */
  takenAt: string;
}

export type PromptStatus = PromptResponse["status"];
export type PromptSectionKind = SectionView["kind"];

/** `POST /api/branches/[branchId]/prompt`. */
export type AssemblePromptInput = z.input<typeof assemblePromptSchema>;

/** A preview of the next request: the user turn (empty: the stored history alone), unsaved settings and tools; never compacts. */
export type PromptPreviewInput = Omit<AssemblePromptInput, "compact">;

export type { ModelEntry, ModelEntryInput };
export type { CompactionResult, MemorySnapshot, PromptResponse, RecordMessagesResult, RetrievalHit, SectionView, Settings };
export type {
  AncestryEntry,
  BranchRecord,
  BranchTreeNode,
  CheckpointRecord,
  ConversationOverview,
  ConversationRecord,
  LibraryConversation,
  MessageRecord,
  OffloadedContentRecord,
  ArtifactRecord,
  SummaryRecord,
};

/** A saved policy as the API returns it: its value read back in the current shape. */
export type SavedPolicy = Omit<PolicyRecord, "policy"> & { policy: Policy };

/** `POST /api/policies`; without `conversationId` (or null) the policy is every conversation's. */
export type SavePolicyInput = z.input<typeof createPolicySchema>;

/** `PATCH /api/policies/[id]`. */
export type UpdatePolicyInput = z.input<typeof updatePolicySchema>;

export interface PolicyDiff {
  from: string;
  to: string;
  differences: PolicyDifference[];
}

export type { ImportSessionResult };
