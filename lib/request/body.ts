import type { Message, ToolCall, ToolDefinition } from "@/lib/context/light";

/** An OpenAI Chat Completions request body, as the next call sends it. */
export interface ChatRequestBody {
  model: string;
  messages: Record<string, unknown>[];
  tools?: ToolDefinition[];
  max_tokens: number;
}

function wireToolCall(call: ToolCall): ToolCall {
  return { id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } };
}

/** A canonical message in the wire's own fields (engine marks and provider extras stay home). */
export function wireMessage(message: Message): Record<string, unknown> {
  const wire: Record<string, unknown> = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) wire.tool_calls = message.tool_calls.map(wireToolCall);
  if (message.tool_call_id !== undefined) wire.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) wire.name = message.name;
  return wire;
}

/** The JSON body the next call sends: model, messages, tools (when any), and the reply's limit. */
export function chatRequestBody(request: { model: string; messages: readonly Message[]; tools: readonly ToolDefinition[]; maxTokens: number }): ChatRequestBody {
  return {
    model: request.model,
    messages: request.messages.map(wireMessage),
    ...(request.tools.length > 0 ? { tools: [...request.tools] } : {}),
    max_tokens: request.maxTokens,
  };
}
