// Mastra (AD-6): an input processor, which Mastra runs on a call's input
// messages before the model is called.
import type { InputProcessor } from "@mastra/core/processors";
import type { Message, ToolDefinition } from "@/lib/context";
import { readMastraMessages, writeMastraMessages, type MastraMessage } from "./mastra/messages";
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

type ProcessorMessages = Parameters<InputProcessor["processInput"]>[0]["messages"];

/** Options of `contextPolicyProcessor`: what the input messages do not show. */
export interface ContextPolicyProcessorOptions extends ContextPolicyOptions {
  /** The agent's instructions: counted and kept first, not sent again (Mastra sends them itself). */
  instructions?: string;
  /** The agent's tools, for the budget. */
  tools?: readonly ToolDefinition[];
}

/**
 * An input processor that makes a call's input messages what the policy sends
 * (AD-6). Mastra runs input processors once per `generate`/`stream` call, before
 * its first model call: the steps of a tool loop inside one call add to what
 * the processor returned.
 * @example new Agent({ name, instructions, model, inputProcessors: [contextPolicyProcessor(policy, { instructions })] })
 */
export function contextPolicyProcessor(policy: PolicyInput, options: ContextPolicyProcessorOptions = {}): InputProcessor {
  const applied = createContextPolicy(policy, options);
  return {
    name: "context-policy",
    async processInput({ messages }) {
      const { history, origins } = readMastraMessages(messages as readonly MastraMessage[]);
      const instructions: Message[] = options.instructions ? [{ role: "system", content: options.instructions }] : [];
      const built = await applied.prepare([...instructions, ...history], options.tools);
      const kept = built.messages.filter((message) => !instructions.includes(message));
      return writeMastraMessages(kept, origins) as ProcessorMessages;
    },
  };
}
