/** Canonical messages → text for export and download, readable back by `parseConversations`. */
import type { Message, ToolDefinition } from "@/lib/context/messages";

/** Export formats: an OpenAI `{messages, tools?}` document, or one message per line. */
export type SerializeFormat = "openai" | "jsonl";

/** Options of `serializeConversation`. */
export interface SerializeConversationOptions {
  /** Tool definitions to include; the `openai` document holds them, JSONL has no place for them. */
  tools?: readonly ToolDefinition[];
}

/** Serializes messages as an OpenAI `{messages, tools?}` document (pretty-printed) or as JSONL. */
export function serializeConversation(
  messages: readonly Message[],
  format: SerializeFormat,
  options: SerializeConversationOptions = {},
): string {
  const clean = messages.map(canonicalMessage);
  if (format === "jsonl") return clean.map((message) => JSON.stringify(message)).join("\n") + "\n";
  const document: { messages: Message[]; tools?: readonly ToolDefinition[] } = { messages: clean };
  if (options.tools !== undefined && options.tools.length > 0) document.tools = options.tools;
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Only the canonical fields, in wire order, so exports are stable whatever the message carried. */
function canonicalMessage(message: Message): Message {
  const clean: Message = { role: message.role, content: message.content };
  if (message.tool_calls !== undefined && message.tool_calls.length > 0) {
    clean.tool_calls = message.tool_calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.function.name, arguments: call.function.arguments },
    }));
  }
  if (message.tool_call_id !== undefined) clean.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) clean.name = message.name;
  return clean;
}
