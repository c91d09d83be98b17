import "server-only";

// The chat recorder (issue 5): a user turn typed in the playground, tool
// results pasted by hand, the reply from the configured upstream, each turn
// recorded through lib/memory and published live. See README.md.
export { startChatTurn, ChatTurn, type ChatTurnOptions } from "./chat";
export { answerChatRequest, formatChatEvent } from "./response";
export { createRecorderSummarizer, summaryRequest, transcriptOf, type RecorderSummarizer } from "./summarizer";
export { callUpstream, deltasOfChunk, retryAfterSeconds, type UpstreamResult, type CallUpstreamOptions } from "./upstream";
export { RecorderError, recorderErrorResponse, NOT_CONFIGURED_MESSAGE, type RecorderErrorCode } from "./errors";
export { turnMessages } from "./turn";
export * from "./types";
