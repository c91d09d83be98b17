/**
 * LangChain messages: `dumpd()` / LangGraph state (`{lc: 1, type:
 * "constructor", id: [..., "HumanMessage"], kwargs}`) and `messages_to_dict()`
 * (`{type: "human", data}`), in an array or under `messages`. Their fields are
 * OpenAI chat's with other names: `type` for the role, `tool_calls` with
 * `args` objects.
 */
import { isRecord, type JsonPath, type MessageScope } from "../issues";
import type { DocumentImporter } from "../registry";
import { readChatWire, type ChatWireMessage } from "./chat-wire";

const ROLES: Record<string, string> = {
  human: "user",
  HumanMessage: "user",
  HumanMessageChunk: "user",
  ai: "assistant",
  AIMessage: "assistant",
  AIMessageChunk: "assistant",
  system: "system",
  SystemMessage: "system",
  tool: "tool",
  ToolMessage: "tool",
  function: "function",
  FunctionMessage: "function",
  chat: "chat",
  ChatMessage: "chat",
};

function isSerialized(value: unknown): boolean {
  return (
    isRecord(value) &&
    ((value.lc === 1 && Array.isArray(value.id) && isRecord(value.kwargs)) || (typeof value.type === "string" && value.type in ROLES && isRecord(value.data)))
  );
}

export const langchainImporter: DocumentImporter = {
  format: "langchain",
  detect(value) {
    const messages = isRecord(value) && Array.isArray(value.messages) ? value.messages : value;
    return Array.isArray(messages) && messages.length > 0 && isSerialized(messages[0]);
  },
  convert(value, place, context) {
    const inMessages = isRecord(value) && Array.isArray(value.messages);
    const path = inMessages ? [...place.path, "messages"] : place.path;
    const raw = (inMessages ? (value as { messages: unknown[] }).messages : value) as unknown[];
    const scope = context.scope(path, place.conversationIndex);
    const wire = raw.flatMap((message, index) => toChat(message, [...path, index], index, scope) ?? []);
    return [{ format: "langchain", messages: readChatWire(scope, wire), warnings: scope.warnings }];
  },
};

function toChat(raw: unknown, path: JsonPath, index: number, scope: MessageScope): ChatWireMessage | undefined {
  if (!isSerialized(raw)) {
    scope.fail(index, [], 'a LangChain message must be {lc: 1, type: "constructor", id: [..., "HumanMessage"], kwargs} or {type: "human", data}');
    return undefined;
  }
  const message = raw as Record<string, unknown>;
  const serialized = message.lc === 1;
  const className = serialized ? String((message.id as unknown[]).at(-1)) : String(message.type);
  const fieldsKey = serialized ? "kwargs" : "data";
  const fields = message[fieldsKey] as Record<string, unknown>;
  let role: string | undefined = ROLES[className] ?? (typeof fields.type === "string" ? ROLES[fields.type] : undefined);
  if (role === "chat") role = typeof fields.role === "string" ? fields.role : undefined;
  if (role === undefined) {
    scope.fail(
      index,
      serialized ? ["id"] : ["type"],
      `unknown LangChain message class ${JSON.stringify(className)}: expected HumanMessage, AIMessage, SystemMessage or ToolMessage`,
    );
    return undefined;
  }
  const chat: Record<string, unknown> = { role, content: fields.content ?? "" };
  if (typeof fields.name === "string") chat.name = fields.name;
  if (typeof fields.tool_call_id === "string") chat.tool_call_id = fields.tool_call_id;
  if (role === "assistant" && Array.isArray(fields.tool_calls) && fields.tool_calls.length > 0) {
    chat.tool_calls = fields.tool_calls.map((call: unknown) => {
      const entry = isRecord(call) ? call : {};
      return { id: entry.id, type: "function", function: { name: entry.name, arguments: JSON.stringify(entry.args ?? {}) } };
    });
    if (chat.content === "") chat.content = null;
  }
  const kwargs = isRecord(fields.additional_kwargs) ? fields.additional_kwargs : {};
  // Older LangChain kept OpenAI's own tool calls and reasoning in additional_kwargs.
  if (chat.tool_calls === undefined && Array.isArray(kwargs.tool_calls) && kwargs.tool_calls.length > 0) chat.tool_calls = kwargs.tool_calls;
  if (typeof kwargs.reasoning_content === "string") chat.reasoning_content = kwargs.reasoning_content;
  return { message: chat, source: [...path, fieldsKey] };
}
