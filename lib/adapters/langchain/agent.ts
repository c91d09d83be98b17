// LangChain.js agents (AD-9): a `createAgent` middleware whose `wrapModelCall`
// makes every model call of the agent's loop the request the policy sends. The
// agent's state keeps the whole history; only what each call sends is shaped.
import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { ClientTool, ServerTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { createMiddleware, type AgentMiddleware } from "langchain";
import type { ToolDefinition } from "@/lib/context";
import { readChatRequest } from "@/lib/formats";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "../policy";
import { readMessages, writeMessages } from "./messages";

/** Options of the agent middleware `contextPolicyMiddleware`. */
export interface ContextPolicyMiddlewareOptions extends ContextPolicyOptions {
  /** The tools the budget counts; default each call's tools (the agent's and its middleware's), as the chat model writes them. */
  tools?: readonly ToolDefinition[];
  /** The middleware's name in the agent (default `"ContextPolicy"`); two in one agent need two names. */
  name?: string;
}

/** A call's tools as the proxy reads them from a chat request: LangChain tools as the chat model converts them, provider tools as they are. */
function callTools(tools: readonly (ClientTool | ServerTool)[]): ToolDefinition[] {
  if (tools.length === 0) return [];
  // A copy: a JSON-schema tool's definition holds the tool's own schema object, which the engine freezes when its development checks are on.
  const written = JSON.parse(JSON.stringify(tools.map((tool) => convertToOpenAITool(tool))));
  return readChatRequest({ messages: [], tools: written }).tools ?? [];
}

/** The built messages split as the agent sends them: its system message first, then the rest. */
function splitSystem(sent: BaseMessage[], readSystem: boolean, system: SystemMessage): { systemMessage: SystemMessage; messages: BaseMessage[] } {
  if (!readSystem) return { systemMessage: system, messages: sent };
  const [first, ...rest] = sent;
  if (first !== undefined && SystemMessage.isInstance(first)) return { systemMessage: first, messages: rest };
  // The agent prepends its system message only when it has text: an empty one sends none.
  return { systemMessage: new SystemMessage(""), messages: sent };
}

/**
 * An agent middleware for `createAgent` that applies the policy to every
 * model call of the agent's loop (AD-9): the call's system message, messages
 * and tools are read, the request built, and the model called with the built
 * messages; each message the policy kept is the agent's own object. List it
 * last in `middleware` to shape the call as the other middleware leave it.
 * @example const agent = createAgent({ model, tools, systemPrompt, middleware: [contextPolicyMiddleware(policy)] })
 */
export function contextPolicyMiddleware(policy: PolicyInput, options: ContextPolicyMiddlewareOptions = {}): AgentMiddleware<undefined, undefined, unknown> {
  const applied = createContextPolicy(policy, options);
  return createMiddleware({
    name: options.name ?? "ContextPolicy",
    async wrapModelCall(request, handler) {
      const readSystem = request.systemMessage.text !== "";
      const { history, origins } = readMessages([...(readSystem ? [request.systemMessage] : []), ...request.messages], "contextPolicyMiddleware");
      const built = await applied.prepare(history, options.tools ?? callTools(request.tools));
      return handler({ ...request, ...splitSystem(writeMessages(built.messages, origins), readSystem, request.systemMessage) });
    },
  });
}
