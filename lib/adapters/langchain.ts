// LangChain.js: a runnable that makes a list of messages what the policy sends,
// to pipe in front of a chat model (AD-4), and a middleware that does it for
// every model call of a `createAgent` agent (AD-9). Both make messages, so this
// entry needs @langchain/core itself, and the middleware `langchain` (peer
// dependencies of this entry only).
import type { BaseMessage } from "@langchain/core/messages";
import { RunnableLambda, type Runnable } from "@langchain/core/runnables";
import type { ToolDefinition } from "@/lib/context";
import { readMessages, writeMessages } from "./langchain/messages";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

export { contextPolicyMiddleware, type ContextPolicyMiddlewareOptions } from "./langchain/agent";
export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

/** What the runnable takes: messages, or a prompt value (a chat prompt template's output). */
export type MessagesInput = readonly BaseMessage[] | { toChatMessages(): BaseMessage[] };

/** Options of `contextPolicyRunnable`. */
export interface ContextPolicyRunnableOptions extends ContextPolicyOptions {
  /** The tools bound to the model, for the budget (the runnable cannot see them). */
  tools?: readonly ToolDefinition[];
}

/**
 * A runnable from messages to the messages the policy sends (AD-4): each one
 * the policy kept as it was is the caller's own message object.
 * @example const chain = contextPolicyRunnable(policy, { tools }).pipe(model.bindTools(tools))
 */
export function contextPolicyRunnable(policy: PolicyInput, options: ContextPolicyRunnableOptions = {}): Runnable<MessagesInput, BaseMessage[]> {
  const applied = createContextPolicy(policy, options);
  return RunnableLambda.from(async (input: MessagesInput) => {
    const messages = "toChatMessages" in input ? input.toChatMessages() : input;
    const { history, origins } = readMessages(messages, "contextPolicyRunnable");
    const built = await applied.prepare(history, options.tools);
    return writeMessages(built.messages, origins);
  }).withConfig({ runName: "ContextPolicy" });
}
