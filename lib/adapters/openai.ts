// The OpenAI SDK without a framework (AD-2): a function from request to request.
import { createContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";
import { chatBodyWithPolicy, responsesBodyWithPolicy } from "./wire";

export { createContextPolicy, type ContextPolicy, type ContextPolicyOptions, type PolicyInput } from "./policy";

/** A request with messages: `ChatCompletionCreateParams`, streaming or not. */
export interface ChatRequestLike {
  messages: readonly object[];
}

/** A Responses request: `ResponseCreateParams`. */
export interface ResponsesRequestLike {
  input?: unknown;
}

/**
 * Chat Completions params → the params the policy sends (AD-2): messages and
 * tools rewritten, every other field kept.
 * @example const withPolicy = contextPolicyChatRequest(policy); await client.chat.completions.create(await withPolicy(params))
 */
export function contextPolicyChatRequest(policy: PolicyInput, options?: ContextPolicyOptions): <T extends ChatRequestLike>(params: T) => Promise<T> {
  const applied = createContextPolicy(policy, options);
  return async (params) => (await chatBodyWithPolicy(applied, params)) as typeof params;
}

/**
 * Responses params → the params the policy sends (AD-2): `instructions`,
 * `input` and `tools` rewritten. The whole history must be in `input`.
 * @example const withPolicy = contextPolicyResponsesRequest(policy); await client.responses.create(await withPolicy(params))
 */
export function contextPolicyResponsesRequest(policy: PolicyInput, options?: ContextPolicyOptions): <T extends ResponsesRequestLike>(params: T) => Promise<T> {
  const applied = createContextPolicy(policy, options);
  return async (params) => (await responsesBodyWithPolicy(applied, params)) as typeof params;
}
