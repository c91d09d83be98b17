// LangChain.js (AD4): a runnable that makes a list of messages what the policy
// sends, to pipe in front of a chat model. It makes messages, so it needs
// @langchain/core itself (a peer dependency of this entry only).
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { RunnableLambda, type Runnable } from "@langchain/core/runnables";
import type { Message, ToolCall, ToolDefinition } from "@/lib/context";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

/** What the runnable takes: messages, or a prompt value (a chat prompt template's output). */
export type MessagesInput = readonly BaseMessage[] | { toChatMessages(): BaseMessage[] };

/** Options of `contextPolicyRunnable`. */
export interface ContextPolicyRunnableOptions extends ContextPolicyOptions {
  /** The tools bound to the model, for the budget (the runnable cannot see them). */
  tools?: readonly ToolDefinition[];
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

/** LangChain messages as canonical messages, each remembering the message it was read from. */
function readMessages(messages: readonly BaseMessage[]): { history: Message[]; origins: Map<Message, BaseMessage> } {
  const origins = new Map<Message, BaseMessage>();
  const history = messages.map((message) => {
    const role = ROLES[message.getType()];
    if (role === undefined) throw new TypeError(`contextPolicyRunnable: a ${message.getType()} message has no place in a model request`);
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

/**
 * A runnable from messages to the messages the policy sends (AD4): each one
 * the policy kept as it was is the caller's own message object.
 * @example const chain = contextPolicyRunnable(policy, { tools }).pipe(model.bindTools(tools))
 */
export function contextPolicyRunnable(policy: PolicyInput, options: ContextPolicyRunnableOptions = {}): Runnable<MessagesInput, BaseMessage[]> {
  const applied = createContextPolicy(policy, options);
  return RunnableLambda.from(async (input: MessagesInput) => {
    const messages = "toChatMessages" in input ? input.toChatMessages() : input;
    const { history, origins } = readMessages(messages);
    const built = await applied.prepare(history, options.tools);
    return built.messages.map((message) => origins.get(message) ?? writeMessage(message));
  }).withConfig({ runName: "ContextPolicy" });
}
