import type { ToolDefinition } from "@/lib/context";
import { writeChatRequest } from "@/lib/formats";
import { isRecord } from "@/lib/formats/context";
import { takesMaxCompletionTokens } from "@/lib/models";
import { CompletionAssembler, outcomeOfCompletion } from "@/lib/upstream/assemble";
import { readChatCompletionRequest } from "../canonical";
import { upstreamRequestHeaders } from "@/lib/upstream/forward";
import { resolveUpstream } from "@/lib/upstream/settings";
import type { Protocol, ReadRequest } from "./types";

/** Chat's `messages`, `tools` and legacy `functions` read by the chat converter (`readChatRequest`). */
function readRequest(body: unknown): ReadRequest {
  const read = readChatCompletionRequest(body);
  return { body: read.body, messages: read.messages, tools: read.tools, stream: read.body.stream === true };
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`): the proxy's first protocol. */
export const openAIChat: Protocol = {
  name: "openai-chat",
  errorShape: "openai",
  readRequest,
  upstream: resolveUpstream,
  notConfigured: "set CONTEXT_LAB_UPSTREAM_BASE_URL (and CONTEXT_LAB_UPSTREAM_API_KEY) or save one with PUT /api/settings/upstream",
  url: (upstream, search) => `${upstream.baseUrl}/chat/completions${search}`,
  headers: upstreamRequestHeaders,
  outcome: outcomeOfCompletion,
  assembler: () => new CompletionAssembler(),
  writeHistory: (messages, tools: ToolDefinition[]) => writeChatRequest({ messages, tools }).value,
  // Legacy `functions` come back as the writer writes them (as `functions` when the agent declared them so).
  supersededFields: ["messages", "tools", "functions"],
  outputLimit: {
    fields: ["max_tokens", "max_completion_tokens"],
    fieldFor: (model) => (takesMaxCompletionTokens(model) ? "max_completion_tokens" : "max_tokens"),
  },
  // OpenAI sends errors inside a chat stream as a data line holding `{ error }`.
  streamError: (status, answer) => {
    const body = isRecord(answer) && "error" in answer ? answer : { error: { message: `the upstream answered ${status}`, type: "upstream_error" } };
    return `data: ${JSON.stringify(body)}\n\n`;
  },
};
