// The Vercel AI SDK (AD-3): a language-model middleware, which sees every call's
// prompt and tools, and a prepareStep helper, which sees a step's messages.
import type { LanguageModelMiddleware, ModelMessage, PrepareStepFunction, SystemModelMessage, ToolSet } from "ai";
import type { JsonSchema, Message, ToolDefinition } from "@/lib/context";
import { readSdkMessages, writeSdkMessages, type SdkMessage } from "./ai-sdk/messages";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"];
type CallTool = NonNullable<CallOptions["tools"]>[number];
type FunctionTool = Extract<CallTool, { type: "function" }>;

function toolDefinition(tool: FunctionTool): ToolDefinition {
  return {
    type: "function",
    function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema as JsonSchema },
  };
}

/** The call's tools with the ones the request builder added (`reload_offloaded`, RB5). */
function withAddedTools(tools: CallOptions["tools"], built: readonly ToolDefinition[]): CallOptions["tools"] {
  const names = new Set((tools ?? []).map((tool) => tool.name));
  const added = built
    .filter((tool) => !names.has(tool.function.name))
    .map(
      (tool): FunctionTool => ({
        type: "function",
        name: tool.function.name,
        description: tool.function.description,
        inputSchema: (tool.function.parameters ?? {}) as FunctionTool["inputSchema"],
      }),
    );
  return added.length === 0 ? tools : [...(tools ?? []), ...added];
}

/**
 * A middleware for `wrapLanguageModel` that applies the policy to every call
 * (AD-3): the prompt and function tools are read, the request built, and the
 * call made with the built prompt; without an output limit of its own the call
 * gets the policy's reserve, as through the proxy.
 * @example const model = wrapLanguageModel({ model: openai("gpt-4o"), middleware: contextPolicyMiddleware(policy) })
 */
export function contextPolicyMiddleware(policy: PolicyInput, options?: ContextPolicyOptions): LanguageModelMiddleware {
  const applied = createContextPolicy(policy, options);
  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      const { history, origins } = readSdkMessages(params.prompt as readonly SdkMessage[]);
      const tools = (params.tools ?? []).filter((tool): tool is FunctionTool => tool.type === "function").map(toolDefinition);
      const built = await applied.prepare(history, tools);
      return {
        ...params,
        prompt: writeSdkMessages(built.messages, origins, "prompt") as CallOptions["prompt"],
        tools: withAddedTools(params.tools, built.tools),
        maxOutputTokens: params.maxOutputTokens ?? built.maxTokens,
      };
    },
  };
}

/** Options of `contextPolicyPrepareStep`: what a step's messages do not show. */
export interface ContextPolicyPrepareStepOptions extends ContextPolicyOptions {
  /** The call's system prompt, when given as `system`: counted and kept first. */
  system?: string;
  /** The call's tools, for the budget (prepareStep cannot see them). */
  tools?: readonly ToolDefinition[];
}

/**
 * A `prepareStep` for `generateText`/`streamText` and agents that applies the
 * policy to each step's messages (AD-3). A step's messages hold neither the
 * call's `system` nor its tools: pass them in `options` to have them counted.
 * @example generateText({ model, system, messages, tools, prepareStep: contextPolicyPrepareStep(policy, { system }) })
 */
export function contextPolicyPrepareStep<TOOLS extends ToolSet = ToolSet>(
  policy: PolicyInput,
  options: ContextPolicyPrepareStepOptions = {},
): PrepareStepFunction<TOOLS> {
  const applied = createContextPolicy(policy, options);
  return async ({ messages }) => {
    const system: ModelMessage[] = options.system === undefined ? [] : [{ role: "system", content: options.system }];
    const { history, origins } = readSdkMessages([...system, ...messages] as readonly SdkMessage[]);
    const built = await applied.prepare(history, options.tools);
    const written = writeSdkMessages(built.messages, origins, "model") as ModelMessage[];
    const leading = leadingSystem(built.messages);
    // The leading system messages go as `system`, where the step's own system prompt would be.
    if (leading === 0) return { messages: written };
    return { system: written.slice(0, leading) as SystemModelMessage[], messages: written.slice(leading) };
  };
}

function leadingSystem(messages: readonly Message[]): number {
  const index = messages.findIndex((message) => message.role !== "system");
  return index === -1 ? messages.length : index;
}
