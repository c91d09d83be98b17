/**
 * Conversation import: chat logs, transcripts and traces of every format in
 * README.md → canonical messages. Isomorphic: the paste box and route
 * handlers share it. The only public entry of `lib/import`.
 */
export { parseConversations, parseConversationsAsync, DEFAULT_MAX_IMPORT_BYTES, UNKNOWN_FORMAT_MESSAGE } from "./parse";
export { ImportError, MAX_IMPORT_ISSUES, formatImportIssue, type ImportIssue, type ImportTooLarge } from "./errors";
export {
  CONTEXT_LAB_OFFLOAD_MARKER,
  EXO_OFFLOAD_MARKER,
  collectOffloadMarkers,
  findOffloadMarkers,
  type FoundOffloadMarker,
} from "./markers";
export {
  serializeConversation,
  serializeConversationPieces,
  SERIALIZE_FORMATS,
  type SerializeConversationOptions,
  type SerializedPieces,
  type SerializeFormat,
  type SerializeResult,
} from "./serialize";
export {
  IMPORT_FORMATS,
  IMPORT_FORMAT_LABELS,
  type ImportFormat,
  type ImportResult,
  type ImportWarning,
  type ImportWarningCode,
  type ImportedCompaction,
  type ImportedConversation,
  type SubagentLink,
  type OffloadEngine,
  type OffloadMarker,
  type ParseConversationsOptions,
} from "./types";
