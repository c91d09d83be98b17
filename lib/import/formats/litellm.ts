/**
 * LiteLLM logs: the `StandardLoggingPayload` its callbacks receive and the
 * proxy's spend logs. The request's `messages` (or `proxy_server_request`),
 * the response's choice and the tools of `model_parameters` make one conversation.
 */
import { readChatTools } from "@/lib/formats";
import { isRecord, type JsonPath } from "../issues";
import type { DocumentImporter } from "../registry";
import { convertMessageList, readWithScope, type ConversationDraft } from "../requests";
import { readChatWire } from "./chat-wire";

const LOG_FIELDS = ["call_type", "model_parameters", "response_cost", "litellm_call_id", "proxy_server_request", "hidden_params"];

export const litellmImporter: DocumentImporter = {
  format: "litellm",
  detect(value) {
    return (
      isRecord(value) &&
      isRecord(value.response) &&
      LOG_FIELDS.some((field) => field in value) &&
      (Array.isArray(value.messages) || isRecord(value.proxy_server_request))
    );
  },
  convert(value, place, context) {
    const log = value as Record<string, unknown> & { response: Record<string, unknown> };
    const request = isRecord(log.proxy_server_request) ? log.proxy_server_request : {};
    const messagesPath: JsonPath = Array.isArray(log.messages) ? [...place.path, "messages"] : [...place.path, "proxy_server_request", "messages"];
    const raw = Array.isArray(log.messages) ? log.messages : request.messages;
    const scope = context.scope(messagesPath, place.conversationIndex);
    if (!Array.isArray(raw)) {
      scope.failAt(messagesPath, "a LiteLLM log needs the request's messages (messages or proxy_server_request.messages)");
      return [{ format: "litellm", messages: [], warnings: scope.warnings }];
    }
    const messages = convertMessageList(raw, "openai", scope);
    const choices = log.response.choices;
    const choice = Array.isArray(choices) && isRecord(choices[0]) ? choices[0].message : undefined;
    if (isRecord(choice)) messages.push(...readChatWire(scope, [{ message: choice, source: [...place.path, "response", "choices", 0, "message"] }]));
    else scope.warn("part-dropped", "the response holds no choices[0].message: only the request was imported");
    const draft: ConversationDraft = { format: "litellm", messages, warnings: scope.warnings, source: sourceOf(log) };
    const parameters = isRecord(log.model_parameters) ? log.model_parameters : {};
    const toolsAt: [unknown, JsonPath] | undefined = Array.isArray(parameters.tools)
      ? [parameters.tools, [...place.path, "model_parameters", "tools"]]
      : Array.isArray(request.tools)
        ? [request.tools, [...place.path, "proxy_server_request", "tools"]]
        : undefined;
    if (toolsAt !== undefined) draft.tools = readWithScope(scope, "openai-chat", toolsAt[1], (conversion) => readChatTools(toolsAt[0], conversion, []));
    return [draft];
  },
};

function sourceOf(log: Record<string, unknown>): Record<string, unknown> {
  const source: Record<string, unknown> = {};
  for (const key of ["id", "model", "call_type", "custom_llm_provider", "response_cost", "status", "startTime", "endTime"])
    if (log[key] !== undefined) source[key] = log[key];
  return source;
}
