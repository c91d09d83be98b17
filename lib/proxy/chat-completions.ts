import "server-only";
import type { ToolDefinition } from "@/lib/context";
import { database } from "@/lib/api/database";
import type { ConversationRecord, Database, JsonObject } from "@/lib/db";
import { outcomeOfCompletion } from "./assemble";
import { RecordedCall } from "./call";
import { toCanonicalMessages, type CanonicalMessage } from "./canonical";
import { lookupConversation } from "./conversations";
import { describeProxyError, openAIErrorBody, ProxyRequestError, type OpenAIErrorBody } from "./errors";
import { CallWatch, describeUpstreamError, networkErrorOf, parseMaybeJson, passthroughHeaders, upstreamRequestHeaders } from "./forward";
import { identifyAgent, type AgentIdentity } from "./identify";
import { runPipeline, wantsPipeline } from "./pipeline";
import { conversationKeyOf } from "./protocols/session";
import { passStream } from "./stream";
import { resolveUpstream, type UpstreamConfig } from "./upstream-settings";

/** Status recorded when the agent hung up before the answer (nginx's convention; never sent). */
const CLIENT_CLOSED_REQUEST = 499;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseBody(text: string): { body: Record<string, unknown>; messages: CanonicalMessage[]; tools: ToolDefinition[] | null } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProxyRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(body)) throw new ProxyRequestError("the request body must be a JSON object with model and messages");
  if (!Array.isArray(body.messages)) throw new ProxyRequestError("messages must be an array of chat messages", "messages");
  const tools = Array.isArray(body.tools) ? (body.tools as ToolDefinition[]) : null;
  return { body, messages: toCanonicalMessages(body.messages), tools };
}

/** A failure the proxy answers itself: the response, and the error recorded with it. */
function ownError(status: number, body: OpenAIErrorBody, source: string): { response: Response; error: JsonObject } {
  const { message, type, code } = body.error;
  return { response: Response.json(body, { status }), error: { source, status, type, message, code } };
}

interface Prepared {
  db: Database;
  text: string;
  parsed: ReturnType<typeof parseBody>;
  /** The record key of the request's conversation (P-S2). */
  key: string;
  conversation: ConversationRecord | null;
}

/** Reads the body and finds the agent's conversation; the only database wait before forwarding. */
async function prepare(request: Request, identity: AgentIdentity): Promise<Prepared> {
  const text = await request.text();
  const parsed = parseBody(text);
  const db = database();
  const key = await conversationKeyOf(db, identity, parsed.messages);
  return { db, text, parsed, key, conversation: await lookupConversation(db, key) };
}

/** The processed body, or the refusal to send, when the conversation applies the context pipeline. */
async function applyPipeline(prepared: Prepared) {
  const { conversation, parsed } = prepared;
  if (!wantsPipeline(conversation)) return { outgoing: null, steps: null, refusal: null };
  try {
    const processed = await runPipeline(prepared.db, conversation, parsed.messages, parsed.tools);
    if (processed.exceeded) return { outgoing: null, steps: processed.steps, refusal: budgetRefusal(conversation, processed.exceeded) };
    const tools = processed.tools.length > 0 ? { tools: processed.tools } : {};
    return { outgoing: { ...parsed.body, messages: processed.messages, ...tools }, steps: processed.steps, refusal: null };
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return { outgoing: null, steps: null, refusal: ownError(status, body, "pipeline") };
  }
}

/**
 * `POST /v1/chat/completions`, OpenAI-compatible: forwards to the configured
 * upstream (streamed chunk by chunk, or whole), answers with exactly what
 * the upstream answered, and records the call into the agent's conversation
 * on the side. See lib/proxy/README.md.
 */
export async function handleChatCompletions(request: Request): Promise<Response> {
  const identity = identifyAgent(request.headers);
  let prepared: Prepared;
  try {
    prepared = await prepare(request, identity);
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return Response.json(body, { status });
  }
  const { db, parsed } = prepared;
  const { outgoing, steps, refusal } = await applyPipeline(prepared);
  const call = new RecordedCall(
    db,
    {
      key: prepared.key,
      request: parsed.body,
      messages: parsed.messages,
      tools: parsed.tools,
      sent: outgoing,
      sentMessages: outgoing ? (outgoing.messages as unknown[]).length : null,
      streamed: parsed.body.stream === true,
    },
    steps,
  );
  if (refusal) {
    call.finish({ status: refusal.response.status, response: null, error: refusal.error, completion: null });
    return refusal.response;
  }
  try {
    const upstream = resolveUpstream();
    if (!upstream) return notConfigured(call);
    return await forward(request, call, identity, upstream, outgoing ? JSON.stringify(outgoing) : prepared.text);
  } catch (error) {
    // A bug or a broken configuration (an invalid base URL in the environment): answered, and recorded like any failure.
    const { status, body } = describeProxyError(error);
    const failure = ownError(status, body, "proxy");
    call.finish({ status, response: null, error: failure.error, completion: null });
    return failure.response;
  }
}

function notConfigured(call: RecordedCall): Response {
  const message =
    "Context Lab has no upstream to forward to: set CONTEXT_LAB_UPSTREAM_BASE_URL (and CONTEXT_LAB_UPSTREAM_API_KEY) or save one with PUT /api/settings/upstream";
  const failure = ownError(503, openAIErrorBody("upstream_not_configured", message, { code: "upstream_not_configured" }), "proxy");
  call.finish({ status: 503, response: null, error: failure.error, completion: null });
  return failure.response;
}

function budgetRefusal(conversation: ConversationRecord, exceeded: { budget: number; tokens: number }): { response: Response; error: JsonObject } {
  const message =
    `context budget exceeded: after the context pipeline the history still needs ${exceeded.tokens} tokens, over the budget of ${exceeded.budget} ` +
    `set for conversation ${conversation.id}; raise tokenBudget in its settings, start a new conversation, or turn applyPipeline off. Nothing was sent upstream.`;
  const body = openAIErrorBody("context_budget_exceeded", message, {
    code: "context_budget_exceeded",
    param: "messages",
    details: { budget: exceeded.budget, tokens: exceeded.tokens },
  });
  const failure = ownError(400, body, "pipeline");
  return { response: failure.response, error: { ...failure.error, budget: exceeded.budget, tokens: exceeded.tokens } };
}

async function forward(request: Request, call: RecordedCall, identity: AgentIdentity, upstream: UpstreamConfig, payload: string): Promise<Response> {
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${upstream.baseUrl}/chat/completions`, {
      method: "POST",
      headers: upstreamRequestHeaders(request.headers, upstream, identity),
      body: payload,
      signal: watch.signal,
    });
  } catch (error) {
    watch.dispose();
    return callFailed(call, upstream, watch, error);
  }
  const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (response.ok && eventStream && response.body) return passStream(call, watch, response);
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return callFailed(call, upstream, watch, error);
  } finally {
    watch.dispose();
  }
  const answer = parseMaybeJson(text);
  call.finish({
    status: response.status,
    response: answer,
    error: response.ok ? null : { ...describeUpstreamError(response.status, answer, response.headers) },
    completion: response.ok ? outcomeOfCompletion(answer) : null,
  });
  return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
}

/** No usable answer came: a timeout (504), the agent gone (499, recorded only), or the upstream unreachable (502). */
function callFailed(call: RecordedCall, upstream: UpstreamConfig, watch: CallWatch, error: unknown): Response {
  const reason = watch.reason;
  let failure: { response: Response; error: JsonObject };
  if (reason?.kind === "client") {
    failure = ownError(CLIENT_CLOSED_REQUEST, openAIErrorBody("client_closed_request", reason.message), "client");
  } else if (reason?.kind === "timeout") {
    failure = ownError(
      504,
      openAIErrorBody("upstream_timeout", `${upstream.baseUrl} did not answer in time: ${reason.message}`, { code: "upstream_timeout" }),
      "proxy",
    );
  } else {
    const network = networkErrorOf(error);
    failure = ownError(
      502,
      openAIErrorBody("upstream_unreachable", `cannot reach the upstream ${upstream.baseUrl}: ${network.message}`, { code: network.code ?? "upstream_unreachable" }),
      "proxy",
    );
  }
  call.finish({ status: failure.response.status, response: null, error: failure.error, completion: null });
  return failure.response;
}
