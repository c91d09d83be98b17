// LangChain messages ↔ canonical messages, shared by the runnable (AD-4) and the
// agent middleware (AD-9). A message the policy kept is handed back as the
// caller's own object (AD-8).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { Message, ToolCall } from "@/lib/context";

/** Canonical messages read from LangChain ones, each remembering the message it was read from. */
export interface ReadMessages {
  history: Message[];
  origins: Map<Message, BaseMessage>;
}

const ROLES: Readonly<Record<string, Message["role"]>> = { system: "system", developer: "system", human: "user", ai: "assistant", tool: "tool" };

function toolCallsOf(message: BaseMessage): ToolCall[] {
  if (!AIMessage.isInstance(message)) return [];
  return (message.tool_calls ?? []).map((call) => ({
    id: call.id ?? "",
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
  }));
}

/** LangChain messages as canonical messages; `adapter` names the caller in the error a message with no role in a request gets. */
export function readMessages(messages: readonly BaseMessage[], adapter: string): ReadMessages {
  const origins = new Map<Message, BaseMessage>();
  const history = messages.map((message) => {
    const role = ROLES[message.getType()];
    if (role === undefined) throw new TypeError(`${adapter}: a ${message.getType()} message has no place in a model request`);
    const calls = toolCallsOf(message);
    const text = message.text;
    const read: Message = { role, content: role === "assistant" && text === "" && calls.length > 0 ? null : text };
    if (calls.length > 0) read.tool_calls = calls;
    if (ToolMessage.isInstance(message)) read.tool_call_id = message.tool_call_id;
    origins.set(read, message);
    return read;
  });
  return { history, origins };
}

function parsedArguments(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { input: text };
  }
}

/** A message the policy changed or made, as the LangChain message of its role. */
function writeMessage(message: Message): BaseMessage {
  const content = message.content ?? "";
  if (message.role === "system") return new SystemMessage(content);
  if (message.role === "user") return new HumanMessage(content);
  if (message.role === "tool") return new ToolMessage({ content, tool_call_id: message.tool_call_id ?? "" });
  return new AIMessage({
    content,
    tool_calls: (message.tool_calls ?? []).map((call) => ({
      id: call.id,
      name: call.function.name,
      args: parsedArguments(call.function.arguments),
      type: "tool_call",
    })),
  });
}

/** The built request's messages as LangChain ones: the caller's own object where the policy kept it (AD-8). */
export function writeMessages(messages: readonly Message[], origins: ReadonlyMap<Message, BaseMessage>): BaseMessage[] {
  return messages.map((message) => origins.get(message) ?? writeMessage(message));
}
