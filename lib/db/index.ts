import "server-only";

// The storage layer's public surface. Every query takes the client first
// (`getDatabase()` in the app, a test database in tests). `get*` throws
// NotFoundError for a missing row; `find*` returns null.
export { createDatabase, getDatabase, describeDatabase, isPostgresUrl, DEFAULT_DATABASE_URL, type Database } from "./client";
export {
  DatabaseError,
  NotFoundError,
  ConflictError,
  InvalidArgumentError,
  DatabaseUnavailableError,
  type DatabaseDescription,
} from "./errors";
export type { JsonValue, JsonObject } from "./json";
export { findUnstorableText, requireStorableText, unstorableTextProblem, type UnstorableText } from "./text";
export {
  beginStaging,
  publishStagedConversations,
  deleteStagedConversations,
  deleteAbandonedStagedConversations,
  renewStaging,
  stagingLeaseMs,
  STAGING_SOURCE_PREFIX,
  type Staging,
} from "./staging";
export type { ListOptions } from "./lineage";
export {
  branchRevision,
  getBranchScope,
  scopeAfterAppend,
  scopeWithRow,
  emptyRootScope,
  getConversationView,
  type ConversationView,
  type BranchScope,
  type BranchScopeOptions,
  type BranchRef,
} from "./scope";
export {
  createConversation,
  getConversations,
  getConversationById,
  findConversationByRecordKey,
  findConversationBySessionKey,
  getConversationsByRecordKeyFamily,
  getSubagentsByConversationId,
  getUnlinkedSubagentsBySessionKey,
  linkSubagent,
  updateConversationById,
  updateConversationWithSettings,
  deleteConversationById,
  type ConversationOrigin,
  type ConversationRecord,
  type ConversationOverview,
  type CreateConversationOptions,
  type CreateConversationResult,
  type UpdateConversationOptions,
  type SettingsMerge,
  type ConversationListOptions,
} from "./conversations";
export {
  getConversationPage,
  indexUnindexedConversations,
  type LibraryConversation,
  type LibraryPageResult,
  type LibraryQueryOptions,
} from "./library";
export {
  forkBranch,
  getBranchById,
  getBranchesByConversationId,
  getRootBranchByConversationId,
  getBranchTreeByConversationId,
  getAncestryByBranchId,
  type BranchRecord,
  type BranchTreeNode,
  type AncestryEntry,
  type ForkBranchOptions,
} from "./branches";
export {
  appendMessages,
  appendMessagesBulk,
  bulkBatches,
  getHistoryByBranchId,
  getHistoryTotalsByBranchId,
  type HistoryTotals,
  type MessageRecord,
  type NewMessage,
  type AppendMessagesOptions,
  type HistoryOptions,
} from "./messages";
export {
  createSummary,
  getSummaryChainByBranchId,
  getLatestSummaryByBranchId,
  getSummariesByBranchId,
  getSummaryChainLengthByBranchId,
  type SummaryRecord,
  type CreateSummaryOptions,
} from "./summaries";
export {
  createCheckpoint,
  getCheckpointsByBranchId,
  getCheckpointById,
  getCheckpointOutlinesByBranchId,
  type CheckpointOutline,
  type CheckpointOutlineOptions,
  type CheckpointRecord,
  type CreateCheckpointOptions,
} from "./checkpoints";
export {
  putOffloadedContent,
  getOffloadedContentByHandle,
  getOffloadedContentsByBranchId,
  findOffloadedContentOutlineByHandle,
  getOffloadedContentOutlinesByBranchId,
  type OffloadedContentOutline,
  type OffloadedContentRecord,
  type OffloadedKind,
  type PutOffloadedContentOptions,
} from "./offloaded";
export {
  createArtifact,
  getArtifactById,
  getArtifactsByBranchId,
  getArtifactOutlinesByBranchId,
  type ArtifactOutline,
  type ArtifactRecord,
  type CreateArtifactOptions,
} from "./artifacts";
export {
  createExchange,
  updateExchangeById,
  writeExchangeById,
  getExchangeById,
  getExchangesByConversationId,
  getExchangePageByConversationId,
  getExchangeWithEarlierById,
  type ExchangeRecord,
  type ExchangePageOptions,
  type ExchangePageResult,
  type CreateExchangeOptions,
  type UpdateExchangeOptions,
  type ExchangeListOptions,
} from "./exchanges";
export { compactStoredRequests, type CompactionReport } from "./compact-requests";
export {
  createProxyCall,
  endJournaledCall,
  endProxyCallById,
  newProxyCallId,
  removePlacedProxyCall,
  getUnplacedProxyCalls,
  type ProxyCallRecord,
  type CreateProxyCallOptions,
  type EndProxyCallOptions,
  type UnplacedProxyCallOptions,
} from "./proxy-calls";
export { getCustomModels, putCustomModel, deleteCustomModelById, type CustomModelRecord } from "./custom-models";
export {
  createPolicy,
  getPolicies,
  getPolicyById,
  updatePolicyById,
  deletePolicyById,
  type PolicyRecord,
  type CreatePolicyOptions,
  type UpdatePolicyOptions,
} from "./policies";
export { exportSession, importSession, type ExportSessionOptions, type ExportSessionResult, type ImportSessionResult } from "./session";
