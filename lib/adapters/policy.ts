// The one step every adapter takes (AD-1): the history the agent's framework is
// about to send, checked as the proxy checks it, built by the engine's request
// builder under the policy, refused when it does not fit.
import { BoundedMap } from "@/lib/context/bounded-map";
import { BudgetExceededError, buildRequest, sanitizeHistory, type BuiltRequest, type Message, type RequestPolicy, type ToolDefinition } from "@/lib/context";

/** Options of `createContextPolicy`. */
export interface ContextPolicyOptions {
  /**
   * When the policy's request does not fit its window or budget: `"throw"`
   * (the default) throws `BudgetExceededError` and nothing is sent, as the
   * proxy refuses; `"send"` sends it anyway.
   */
  onExceeded?: "throw" | "send";
  /** Offloaded contents kept for `reload` (default 256, the newest kept). */
  reloadCapacity?: number;
}

/** A policy ready to apply to requests: what every adapter takes, shared across them when one agent uses several. */
export interface ContextPolicy {
  readonly policy: RequestPolicy;
  /** The request the policy makes of `history` (broken tool pairs dropped first, calls still waiting at the end kept). */
  prepare(history: readonly Message[], tools?: readonly ToolDefinition[]): Promise<BuiltRequest>;
  /** The content an offload marker of a request this policy prepared stands for; null when it is not known here. */
  reload(handle: string): string | null;
}

/** A policy as the adapters take it: the plain data (an exported policy) or one already made into a `ContextPolicy`. */
export type PolicyInput = RequestPolicy | ContextPolicy;

function isContextPolicy(input: PolicyInput): input is ContextPolicy {
  return typeof (input as Partial<ContextPolicy>).prepare === "function";
}

/**
 * Makes a policy applicable (AD-1): `prepare` runs the request builder with
 * the policy, as the Prompt tab and the proxy do for a conversation with no
 * saved memory, so an agent sends what Context Lab previews.
 * @example const policy = createContextPolicy(exportedPolicy); const request = await policy.prepare(history, tools)
 */
export function createContextPolicy(input: PolicyInput, options: ContextPolicyOptions = {}): ContextPolicy {
  if (isContextPolicy(input)) return input;
  const policy = input;
  const offloaded = new BoundedMap<string, string>(options.reloadCapacity ?? 256);
  return {
    policy,
    async prepare(history, tools = []) {
      const { history: raw } = sanitizeHistory(history, { allowPendingToolCalls: true });
      const built = await buildRequest({ history: raw, tools, policy });
      for (const [handle, content] of Object.entries(built.offloaded)) offloaded.set(handle, content);
      if (!built.verdict.ok && options.onExceeded !== "send") {
        const error = new BudgetExceededError(built.verdict.limit, built.verdict.tokens.total, built.verdict.reason ?? undefined);
        error.trace = built.trace;
        throw error;
      }
      return built;
    },
    reload: (handle) => offloaded.get(handle) ?? null,
  };
}
