// What an upstream received, message by message, in one shape whatever the
// protocol: read back by the converters (lib/formats), with each message's
// tokens as the policy counts them.
import { policyCounter, type Message, type RequestPolicy } from "@/lib/context";
import { readAnthropicRequest, readChatRequest, readResponsesRequest } from "@/lib/formats";
import { protocolOf, type FakeRequest } from "@/tests/support/fake-openai";

/** One message as sent: role, text, calls with parsed arguments, the call it answers, its tokens. */
export interface SentMessage {
  role: Message["role"];
  text: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  toolCallId: string | null;
  tokens: number;
}

/** The canonical messages of a request the fake upstream received. */
export function receivedMessages(request: FakeRequest): Message[] {
  const protocol = protocolOf(request);
  if (protocol === "chat") return readChatRequest(request.body).messages;
  if (protocol === "responses") return readResponsesRequest(request.body).messages;
  if (protocol === "anthropic") return readAnthropicRequest(request.body).messages;
  throw new Error(`${request.method} ${request.path}: not a model request`);
}

/** Messages as rows to compare: the same rows mean the same messages, token for token. */
export function sentRows(messages: readonly Message[], policy: RequestPolicy): SentMessage[] {
  const counter = policyCounter(policy);
  return messages.map((message) => {
    // The count of what the message says; wire details with no text (a `name` one format writes and another leaves out) are not counted.
    const said: Message = {
      role: message.role,
      content: message.content === "" ? null : message.content,
      ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
      ...(message.tool_call_id ? { tool_call_id: message.tool_call_id } : {}),
    };
    return {
      role: message.role,
      text: message.content ?? "",
      toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments || "{}") })),
      toolCallId: message.tool_call_id ?? null,
      tokens: counter.countMessage(said),
    };
  });
}

/** The rows of what the fake upstream received in `request`. */
export function receivedRows(request: FakeRequest, policy: RequestPolicy): SentMessage[] {
  return sentRows(receivedMessages(request), policy);
}
