/**
 * Wire converters: one reader and one writer per provider format, both ways,
 * shared by import, the recording proxy and export. Isomorphic: no Node
 * built-ins, no tokenizer. Rules with ids in SPEC.md.
 */
import type { CanonicalConversation, ReadOptions, RequestReadResult, WireFormat, WriteResult } from "./types";
import { readChatRequest } from "./openai-chat/request";
import { writeChatRequest } from "./openai-chat/write";
import { readResponsesRequest, writeResponsesRequest } from "./openai-responses/request";
import { readAnthropicRequest } from "./anthropic/request";
import { writeAnthropicRequest } from "./anthropic/write";
import { readGeminiRequest, writeGeminiRequest } from "./gemini/request";

export * from "./types";
export { FormatError, MAX_FORMAT_ISSUES, formatDisplayName, formatPath, type FormatIssue } from "./errors";
export { ConversionContext } from "./context";
export { PART_SEPARATOR, nameToolResults, parseDataUrl, partsToWrite, textOfParts } from "./canonical";
// The engine's one "same message" (F-M3), which F4 states for the formats; lib/proxy/canonical.ts still imports it from here.
export { callFactsMetadata, callFactsOf, isoTime, type CallFacts, type SessionFacts } from "./facts";
export { readReportedUsage, type ReportedUsage } from "./reported-usage";
export {
  SYSTEM_PROMPT_METADATA,
  historyAsSent,
  leadingSystemCount,
  systemPromptChange,
  systemPromptChangeOf,
  systemPromptFingerprint,
  systemPromptShifts,
  type PromptRecord,
  type SystemPromptChange,
  type SystemPromptShift,
} from "./system-prompt";

export { readChatMessages, readChatMessageList, readChatMessage } from "./openai-chat/read";
export { readChatRequest, readChatResponse } from "./openai-chat/request";
export { writeChatMessages, writeChatRequest } from "./openai-chat/write";
export { readChatTools, readChatFunctions, writeChatTools } from "./openai-chat/tools";

export { readResponsesRequest, readResponsesInput, readResponsesOutput, writeResponsesRequest } from "./openai-responses/request";
export { readResponsesItems } from "./openai-responses/read";
export { writeResponsesItems } from "./openai-responses/write";
export { readResponsesTools, writeResponsesTools } from "./openai-responses/tools";

export { readAnthropicRequest, readAnthropicMessages, readAnthropicResponse, readSystem as readAnthropicSystem } from "./anthropic/request";
export { readAnthropicMessageList, readMessage as readAnthropicMessage } from "./anthropic/read";
export { writeAnthropicRequest } from "./anthropic/write";
export { readAnthropicTools, writeAnthropicTools } from "./anthropic/tools";

export { readGeminiRequest, readGeminiMessages, readGeminiResponse, writeGeminiRequest } from "./gemini/request";
export { readGeminiContents, readContent as readGeminiContent } from "./gemini/read";
export { readGeminiTools, writeGeminiTools } from "./gemini/tools";

const readers: Record<WireFormat, (body: unknown, options?: ReadOptions) => RequestReadResult> = {
  "openai-chat": readChatRequest,
  "openai-responses": readResponsesRequest,
  anthropic: readAnthropicRequest,
  gemini: readGeminiRequest,
};

const writers: Record<WireFormat, (conversation: CanonicalConversation) => WriteResult<Record<string, unknown>>> = {
  "openai-chat": writeChatRequest,
  "openai-responses": writeResponsesRequest,
  anthropic: writeAnthropicRequest,
  gemini: writeGeminiRequest,
};

/** Reads a request body of `format`; throws `FormatError` with every problem found. */
export function readRequest(format: WireFormat, body: unknown, options?: ReadOptions): RequestReadResult {
  return readers[format](body, options);
}

/** Writes canonical messages and tools as a request body of `format`, with a warning for each approximation. */
export function writeRequest(format: WireFormat, conversation: CanonicalConversation): WriteResult<Record<string, unknown>> {
  return writers[format](conversation);
}
