import "server-only";

// The OpenAI-compatible recording proxy (README.md). Route handlers import from here.
export { handleModels } from "./models";
export { handleChatCompletions, handleResponses, handleMessages, handleCountTokens, handleEmbeddings } from "./protocols";
export { proxyRoute, unservedProxyRoute, type ProxyRouteHandlers } from "./routes";
export { getProxyRecorder, ProxyRecorder, type RecordedRequest } from "./journal";
export { findConversation, lookupConversation, CONVERSATION_CACHE_MS } from "./conversations";
export { identifyAgent, CONVERSATION_HEADER, SESSION_HEADER, LABEL_KEY_PREFIX, type AgentIdentity } from "./identify";
export { readChatCompletionRequest, readChatReply, messageFingerprint, type ChatCompletionRequest } from "./canonical";
export { RecordedCall, type ProxyCallOptions, type CallOutcome } from "./call";
export { buildProxiedRequest, wantsPipeline, type PipelineOutcome, type PipelineStepSummary } from "./proxied-request";
export { answerReloads, reloadCallsOf, MAX_RELOAD_ROUNDS, RELOAD_TOOL_NAME, type ReloadRound, type ReloadSource } from "./reload";
export { openAIErrorBody, openAIErrorResponse, ProxyRequestError, type OpenAIErrorBody } from "./errors";
