// The Anthropic SDK without a framework (AD-2): a function from request to request.
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";
import { anthropicBodyWithPolicy } from "./wire";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

/** A Messages request: `MessageCreateParams`, streaming or not. */
export interface MessagesRequestLike {
  messages: readonly object[];
}

/**
 * Messages params → the params the policy sends (AD-2): `system`, `messages`
 * and `tools` rewritten, every other field (`max_tokens`, `thinking`...) kept.
 * @example const withPolicy = contextPolicyMessagesRequest(policy); await client.messages.create(await withPolicy(params))
 */
export function contextPolicyMessagesRequest(policy: PolicyInput, options?: ContextPolicyOptions): <T extends MessagesRequestLike>(params: T) => Promise<T> {
  const applied = createContextPolicy(policy, options);
  return async (params) => (await anthropicBodyWithPolicy(applied, params)) as typeof params;
}
