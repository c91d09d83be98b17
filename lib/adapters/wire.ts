// Request bodies of the providers' own APIs, rewritten by a policy (AD-2): read
// and written by the converters the proxy uses (lib/formats), merged with the
// agent's other fields as the proxy merges them, so a body rewritten here is
// the body the proxy would forward for the same history and policy.
import type { Message, ToolDefinition } from "@/lib/context";
import { readAnthropicRequest, readChatRequest, readResponsesRequest, writeAnthropicRequest, writeResponsesRequest } from "@/lib/formats";
import { chatRequestBody } from "@/lib/request/body";
import type { ContextPolicy } from "./policy";

type Body = Record<string, unknown>;

function asBody(body: unknown, what: string): Body {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new TypeError(`${what}: the request must be an object`);
  return body as Body;
}

async function prepared(policy: ContextPolicy, messages: Message[], tools: ToolDefinition[] | undefined) {
  return policy.prepare(messages, tools ?? []);
}

/** An OpenAI Chat Completions body under the policy: the Prompt tab's body with the agent's other fields; the agent's own output limit wins. */
export async function chatBodyWithPolicy(policy: ContextPolicy, input: unknown): Promise<Body> {
  const body = asBody(input, "chat completions");
  const read = readChatRequest(body);
  const built = await prepared(policy, read.messages, read.tools);
  const { messages: _messages, tools: _tools, functions: _functions, ...rest } = body;
  const out: Body = { ...chatRequestBody(built), ...rest };
  if (rest.max_completion_tokens !== undefined && rest.max_tokens === undefined) delete out.max_tokens;
  return out;
}

/** An OpenAI Responses body under the policy: `instructions` and `input` rewritten whole, the agent's other fields kept. */
export async function responsesBodyWithPolicy(policy: ContextPolicy, input: unknown): Promise<Body> {
  const body = asBody(input, "responses");
  if (body.previous_response_id != null || body.conversation != null)
    throw new TypeError(
      "responses: a request that continues a stored response (previous_response_id or conversation) does not hold its history, so no policy can shape it; send the whole input instead",
    );
  const read = readResponsesRequest(body);
  const built = await prepared(policy, read.messages, read.tools);
  const written = writeResponsesRequest({ messages: built.messages, tools: built.tools }).value;
  const { instructions: _instructions, tools: _tools, ...rest } = body;
  return { ...rest, ...written };
}

/** An Anthropic Messages body under the policy: `system`, `messages` and `tools` rewritten, the agent's other fields kept. */
export async function anthropicBodyWithPolicy(policy: ContextPolicy, input: unknown): Promise<Body> {
  const body = asBody(input, "anthropic messages");
  const read = readAnthropicRequest(body);
  const built = await prepared(policy, read.messages, read.tools);
  const written = writeAnthropicRequest({ messages: built.messages, tools: built.tools }).value;
  const { system: _system, tools: _tools, ...rest } = body;
  return { ...rest, ...written };
}
