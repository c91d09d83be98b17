// The OpenAI Agents SDK (AD-5): a `callModelInputFilter`, which the runner calls
// with the instructions and input items of every model call.
import type { Agent, AgentInputItem, CallModelInputFilter } from "@openai/agents";
import type { ToolDefinition } from "@/lib/context";
import { readResponsesRequest } from "@/lib/formats";
import { readItems, writeItems, type AgentItem } from "./openai-agents/items";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

/** Options of `contextPolicyInputFilter`. */
export interface ContextPolicyInputFilterOptions extends ContextPolicyOptions {
  /** The tools the budget counts; default the agent's function tools (handoffs and hosted tools are not counted). */
  tools?: readonly ToolDefinition[];
}

/** The agent's function tools as the Responses model sends them, read as the proxy reads them. */
function agentTools(agent: Pick<Agent, "tools">): ToolDefinition[] {
  const tools = (agent.tools as readonly { type?: string; name?: string; description?: string; parameters?: unknown; strict?: boolean }[])
    .filter((tool) => tool.type === "function")
    .map(({ name, description, parameters, strict }) => ({ type: "function", name, description, parameters, strict }));
  return readResponsesRequest({ input: [], tools }).tools ?? [];
}

/**
 * A `callModelInputFilter` for `Runner` or `run()` that applies the policy to
 * every model call of a run (AD-5): the instructions and input items are read,
 * the request built, and the call made with its instructions and items; items
 * the policy kept are the run's own.
 * @example const runner = new Runner({ callModelInputFilter: contextPolicyInputFilter(policy) })
 */
export function contextPolicyInputFilter(policy: PolicyInput, options: ContextPolicyInputFilterOptions = {}): CallModelInputFilter {
  const applied = createContextPolicy(policy, options);
  return async ({ modelData, agent }) => {
    const { history, origins } = readItems(modelData.input as readonly AgentItem[], modelData.instructions);
    const built = await applied.prepare(history, options.tools ?? agentTools(agent));
    const { instructions, input } = writeItems(built.messages, origins);
    return { instructions, input: input as AgentInputItem[] };
  };
}
