import "server-only";
import { anthropicMessages } from "./anthropic";
import { handleProtocol } from "../pipeline";
import { openAIChat } from "./openai-chat";
import { openAIResponses } from "./openai-responses";
import { passThrough } from "./passthrough";

export { unsupportedEndpoint, methodNotAllowed } from "./unsupported";

/** `POST /v1/chat/completions` (OpenAI Chat Completions), recorded. */
export function handleChatCompletions(request: Request): Promise<Response> {
  return handleProtocol(openAIChat, request);
}

/** `POST /v1/responses` (OpenAI Responses), recorded. */
export function handleResponses(request: Request): Promise<Response> {
  return handleProtocol(openAIResponses, request);
}

/** `POST /v1/messages` (Anthropic Messages), recorded. */
export function handleMessages(request: Request): Promise<Response> {
  return handleProtocol(anthropicMessages, request);
}

/** `POST /v1/messages/count_tokens`, passed through unrecorded. */
export function handleCountTokens(request: Request): Promise<Response> {
  return passThrough(anthropicMessages, request, (upstream, search) => `${upstream.baseUrl}/v1/messages/count_tokens${search}`);
}

/** `POST /v1/embeddings`, passed through unrecorded to the OpenAI upstream. */
export function handleEmbeddings(request: Request): Promise<Response> {
  return passThrough(openAIResponses, request, (upstream, search) => `${upstream.baseUrl}/embeddings${search}`);
}
