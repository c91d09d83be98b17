import "server-only";
import { readBodyText } from "@/lib/api/http";
import { database } from "@/lib/api/database";
import type { Message } from "@/lib/context";
import type { ConversationRecord, Database, JsonObject } from "@/lib/db";
import { chatRequestBody } from "@/lib/request";
import { MAX_REQUEST_BYTES } from "@/lib/security/origin";
import { outcomeOfCompletion } from "./assemble";
import { RecordedCall } from "./call";
import { readChatCompletionRequest, type ChatCompletionRequest } from "./canonical";
import { lookupConversation } from "./conversations";
import { describeProxyError, openAIErrorBody, ProxyRequestError, proxyErrorResponse, type OpenAIErrorBody } from "./errors";
import { CallWatch, describeUpstreamError, networkErrorOf, parseMaybeJson, passthroughHeaders, upstreamRequestHeaders } from "./forward";
import { identifyAgent, type AgentIdentity } from "./identify";
import { buildProxiedRequest, wantsPipeline, type PipelineOutcome } from "./proxied-request";
import { answerReloads, MAX_RELOAD_ROUNDS, RELOAD_TOOL_NAME, reloadCallsOf, type ReloadRound, type ReloadSource } from "./reload";
import { conversationKeyOf } from "./protocols/session";
import { requireStorableRequest } from "./storable";
import { passStream, type StreamReloads } from "./stream";
import { awaitUpstream, fetchUpstream } from "./timing";
import { resolveUpstream, type UpstreamConfig } from "./upstream-settings";

/** Status recorded when the agent hung up before the answer (nginx's convention; never sent). */
const CLIENT_CLOSED_REQUEST = 499;

function parseBody(db: Database, text: string): ChatCompletionRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProxyRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  requireStorableRequest(db, body);
  return readChatCompletionRequest(body);
}

/** A failure the proxy answers itself: the response, and the error recorded with it. */
function ownError(status: number, body: OpenAIErrorBody, source: string): { response: Response; error: JsonObject } {
  const { message, type, code } = body.error;
  return { response: Response.json(body, { status }), error: { source, status, type, message, code } };
}

interface Prepared {
  db: Database;
  text: string;
  parsed: ChatCompletionRequest;
  /** The record key of the request's conversation (P-S2). */
  key: string;
  conversation: ConversationRecord | null;
}

/** Reads the body (size-limited before it is parsed) and finds the agent's conversation. */
async function prepare(request: Request, identity: AgentIdentity): Promise<Prepared> {
  const text = await readBodyText(request, MAX_REQUEST_BYTES);
  const db = database();
  const parsed = parseBody(db, text);
  const key = await conversationKeyOf(db, identity, parsed.messages);
  return { db, text, parsed, key, conversation: await lookupConversation(db, key) };
}

/**
 * The body forwarded when the conversation applies its settings: the one
 * builder's request written by the one OpenAI Chat writer (`chatRequestBody`,
 * the Prompt tab's body), with the agent's own model and other fields
 * (`stream`, `temperature`...). The agent's own output limit wins over the
 * settings' reserve.
 */
function builtBody(agentBody: Record<string, unknown>, built: PipelineOutcome["request"]): Record<string, unknown> {
  const { messages: _messages, tools: _tools, functions: _functions, ...rest } = agentBody;
  const body: Record<string, unknown> = { ...chatRequestBody(built), ...rest };
  if (rest.max_completion_tokens !== undefined && rest.max_tokens === undefined) delete body.max_tokens;
  return body;
}

interface Plan {
  outgoing: Record<string, unknown> | null;
  pipeline: PipelineOutcome | null;
  refusal: { response: Response; error: JsonObject } | null;
}

/** The built body, or the refusal to send, when the conversation applies the context pipeline. */
async function applyPipeline(prepared: Prepared): Promise<Plan> {
  const { conversation, parsed } = prepared;
  if (!wantsPipeline(conversation)) return { outgoing: null, pipeline: null, refusal: null };
  try {
    const pipeline = await buildProxiedRequest(prepared.db, conversation, parsed.messages, parsed.tools);
    if (pipeline.exceeded) return { outgoing: null, pipeline, refusal: budgetRefusal(conversation, pipeline.exceeded) };
    return { outgoing: builtBody(parsed.body, pipeline.request), pipeline, refusal: null };
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return { outgoing: null, pipeline: null, refusal: ownError(status, body, "pipeline") };
  }
}

/**
 * `POST /v1/chat/completions`, OpenAI-compatible: forwards to the configured
 * upstream (streamed chunk by chunk, or whole), answers with exactly what
 * the upstream answered, and journals the call before answering (D5), to be
 * placed into the agent's conversation on the side. See lib/proxy/README.md.
 */
export async function handleChatCompletions(request: Request): Promise<Response> {
  const identity = identifyAgent(request.headers);
  let prepared: Prepared;
  try {
    prepared = await prepare(request, identity);
  } catch (error) {
    return proxyErrorResponse(error);
  }
  const { db, parsed } = prepared;
  const plan = await applyPipeline(prepared);
  const call = new RecordedCall(db, {
    key: prepared.key,
    request: parsed.body,
    messages: parsed.messages,
    tools: parsed.tools,
    sent: plan.outgoing,
    sentMessages: plan.outgoing ? (plan.outgoing.messages as unknown[]).length : null,
    streamed: parsed.body.stream === true,
    pipeline: plan.pipeline?.steps ?? null,
  });
  try {
    if (plan.refusal) {
      await call.finish({ status: plan.refusal.response.status, response: null, error: plan.refusal.error, completion: null });
      return plan.refusal.response;
    }
    const upstream = resolveUpstream();
    if (!upstream) return await notConfigured(call);
    const reloads = plan.outgoing && plan.pipeline ? reloadLoop(db, plan.pipeline, plan.outgoing) : null;
    return await forward(request, call, identity, upstream, plan.outgoing ?? prepared.text, reloads);
  } catch (error) {
    // The journal could not be written (nothing is acknowledged then), a bug, or a broken configuration.
    const { status, body } = describeProxyError(error);
    const failure = ownError(status, body, "proxy");
    await call.finish({ status, response: null, error: failure.error, completion: null }).catch(() => undefined);
    return failure.response;
  }
}

/** How a call whose request carries offload markers answers the model's `reload_offloaded` calls (P4). */
interface ReloadLoop {
  source: ReloadSource;
  /** The body of the next upstream call: the messages so far plus the reply and its tool results. */
  next(answered: Message[]): Record<string, unknown>;
}

function reloadLoop(db: Database, pipeline: PipelineOutcome, outgoing: Record<string, unknown>): ReloadLoop | null {
  const { request } = pipeline;
  if (!request.tools.some((tool) => tool.function.name === RELOAD_TOOL_NAME)) return null;
  let messages: Message[] = request.messages;
  return {
    source: { db, branchId: pipeline.branchId, offloaded: request.offloaded },
    next(answered) {
      messages = [...messages, ...answered];
      return { ...outgoing, messages: chatRequestBody({ ...request, messages }).messages };
    },
  };
}

async function notConfigured(call: RecordedCall): Promise<Response> {
  const message =
    "Context Lab has no upstream to forward to: set CONTEXT_LAB_UPSTREAM_BASE_URL (and CONTEXT_LAB_UPSTREAM_API_KEY) or save one with PUT /api/settings/upstream";
  const failure = ownError(503, openAIErrorBody("upstream_not_configured", message, { code: "upstream_not_configured" }), "proxy");
  await call.finish({ status: 503, response: null, error: failure.error, completion: null });
  return failure.response;
}

/** The builder's refusal (RB3) in OpenAI's error shape, with its figures: nothing is sent upstream. */
function budgetRefusal(conversation: ConversationRecord, exceeded: NonNullable<PipelineOutcome["exceeded"]>): { response: Response; error: JsonObject } {
  const why = exceeded.reason ? ` (${exceeded.reason})` : "";
  const message =
    `context budget exceeded: the request built with this conversation's settings needs ${exceeded.tokens} tokens, over the limit of ${exceeded.budget}${why}, ` +
    `for conversation ${conversation.id}; raise tokenBudget in its settings, start a new conversation, or turn applyPipeline off. Nothing was sent upstream.`;
  const body = openAIErrorBody("context_budget_exceeded", message, {
    code: "context_budget_exceeded",
    param: "messages",
    details: { budget: exceeded.budget, tokens: exceeded.tokens },
  });
  const failure = ownError(400, body, "pipeline");
  return { response: failure.response, error: { ...failure.error, budget: exceeded.budget, tokens: exceeded.tokens } };
}

async function forward(
  request: Request,
  call: RecordedCall,
  identity: AgentIdentity,
  upstream: UpstreamConfig,
  payload: string | Record<string, unknown>,
  reloads: ReloadLoop | null,
): Promise<Response> {
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  const send = (body: Record<string, unknown> | string) =>
    fetchUpstream(`${upstream.baseUrl}/chat/completions`, {
      method: "POST",
      headers: upstreamRequestHeaders(request.headers, upstream, identity),
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal: watch.signal,
    });
  let response: Response;
  try {
    response = await send(payload);
  } catch (error) {
    watch.dispose();
    return callFailed(call, upstream, watch, error);
  }
  const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (response.ok && eventStream && response.body) {
    const streamReloads: StreamReloads | null = reloads && { source: reloads.source, again: (answered) => send(reloads.next(answered)) };
    // Reading starts now; the agent gets the headers and the first byte once the request is journaled (D5).
    const passed = passStream(call, watch, response, { reloads: streamReloads });
    try {
      await call.journaled;
    } catch (error) {
      watch.dispose();
      void passed.body?.cancel().catch(() => undefined);
      throw error;
    }
    return passed;
  }
  const rounds: ReloadRound[] = [];
  for (;;) {
    let text: string;
    try {
      text = await awaitUpstream(response.text());
    } catch (error) {
      watch.dispose();
      return callFailed(call, upstream, watch, error, rounds);
    }
    const answer = parseMaybeJson(text);
    const completion = response.ok ? outcomeOfCompletion(answer) : null;
    const calls = reloads && completion && rounds.length < MAX_RELOAD_ROUNDS ? reloadCallsOf(completion.reply) : null;
    if (reloads && calls && completion?.reply) {
      const { messages, round } = await answerReloads(reloads.source, completion.reply, calls);
      rounds.push(round);
      watch.touch();
      try {
        response = await send(reloads.next(messages));
      } catch (error) {
        watch.dispose();
        return callFailed(call, upstream, watch, error, rounds);
      }
      continue;
    }
    watch.dispose();
    // D5: the outcome is in the journal before the agent gets it.
    await call.finish({
      status: response.status,
      response: answer,
      error: response.ok ? null : { ...describeUpstreamError(response.status, answer, response.headers) },
      completion,
      reloads: rounds,
    });
    return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
  }
}

/** No usable answer came: a timeout (504), the agent gone (499, recorded only), or the upstream unreachable (502). */
async function callFailed(call: RecordedCall, upstream: UpstreamConfig, watch: CallWatch, error: unknown, reloads: ReloadRound[] = []): Promise<Response> {
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
      openAIErrorBody("upstream_unreachable", `cannot reach the upstream ${upstream.baseUrl}: ${network.message}`, {
        code: network.code ?? "upstream_unreachable",
      }),
      "proxy",
    );
  }
  await call.finish({ status: failure.response.status, response: null, error: failure.error, completion: null, reloads });
  return failure.response;
}
