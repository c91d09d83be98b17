import "server-only";
import type { ConversationRecord, Database } from "@/lib/db";
import { database } from "@/lib/api/database";
import { RecordedCall } from "../call";
import { lookupConversation } from "../conversations";
import { describeProxyError, openAIErrorBody, ProxyRequestError } from "../errors";
import { CallWatch, describeUpstreamError, networkErrorOf, parseMaybeJson, passthroughHeaders } from "../forward";
import { identifyAgent, type AgentIdentity } from "../identify";
import { buildProxiedRequest, wantsPipeline } from "../proxied-request";
import { requireStorableRequest } from "../storable";
import { passStream, type StreamAssembler } from "../stream";
import { awaitUpstream, fetchUpstream } from "../timing";
import type { UpstreamConfig } from "../upstream-settings";
import { errorResponseIn, ownErrorIn } from "./errors";
import { conversationKeyOf } from "./session";
import type { Protocol, ReadRequest } from "./types";

/** Status recorded when the agent hung up before the answer (nginx's convention; never sent). */
const CLIENT_CLOSED_REQUEST = 499;

type Failure = ReturnType<typeof ownErrorIn>;

interface Prepared {
  db: Database;
  text: string;
  read: ReadRequest;
  key: string;
  conversation: ConversationRecord | null;
}

/** Reads the body, finds the agent's conversation and, for a request that continues stored responses, the history it continues. */
async function prepare(protocol: Protocol, request: Request, identity: AgentIdentity): Promise<Prepared> {
  const text = await request.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProxyRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  const db = database();
  requireStorableRequest(db, body);
  const read = protocol.readRequest(body);
  // P-S3: a continuation is judged by the history it continues, resolved under the agent's key.
  const continued = (await protocol.continued?.(db, await lookupConversation(db, identity.key), read.body)) ?? null;
  const key = await conversationKeyOf(db, identity, continued ?? read.messages, continued ? {} : { body: read.body });
  const conversation = await lookupConversation(db, key);
  return { db, text, read: continued ? { ...read, messages: continued } : read, key, conversation };
}

/**
 * The processed body when the conversation applies the context pipeline: the
 * one request builder on the request's canonical messages (P1), written back
 * in the protocol's own form.
 */
async function applyPipeline(protocol: Protocol, prepared: Prepared) {
  const { conversation, read } = prepared;
  if (!wantsPipeline(conversation)) return { outgoing: null, steps: null, refusal: null };
  try {
    const processed = await buildProxiedRequest(prepared.db, conversation, read.messages, read.tools);
    if (processed.exceeded) return { outgoing: null, steps: processed.steps, refusal: budgetRefusal(protocol, conversation, processed.exceeded) };
    const { messages, tools } = processed.request;
    return { outgoing: { body: protocol.withMessages(read.body, messages, tools), count: messages.length }, steps: processed.steps, refusal: null };
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return { outgoing: null, steps: null, refusal: ownErrorIn(protocol.errorShape, status, body, "pipeline") };
  }
}

function budgetRefusal(protocol: Protocol, conversation: ConversationRecord, exceeded: { budget: number; tokens: number }): Failure {
  const message =
    `context budget exceeded: after the context pipeline the history still needs ${exceeded.tokens} tokens, over the budget of ${exceeded.budget} ` +
    `set for conversation ${conversation.id}; raise tokenBudget in its settings, start a new conversation, or turn applyPipeline off. Nothing was sent upstream.`;
  const body = openAIErrorBody("context_budget_exceeded", message, {
    code: "context_budget_exceeded",
    param: "messages",
    details: { budget: exceeded.budget, tokens: exceeded.tokens },
  });
  const failure = ownErrorIn(protocol.errorShape, 400, body, "pipeline");
  return { response: failure.response, error: { ...failure.error, budget: exceeded.budget, tokens: exceeded.tokens } };
}

/**
 * A recorded call of `protocol` (README.md, "Protocols"): forwarded to the
 * protocol's upstream (streamed event by event, or whole), answered with
 * exactly what the upstream answered, and recorded into the agent's
 * conversation on the side, as chat completions are.
 */
export async function handleProtocol(protocol: Protocol, request: Request): Promise<Response> {
  const identity = identifyAgent(request.headers);
  let prepared: Prepared;
  try {
    prepared = await prepare(protocol, request, identity);
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return errorResponseIn(protocol.errorShape, status, body);
  }
  const { db, read } = prepared;
  const { outgoing, steps, refusal } = await applyPipeline(protocol, prepared);
  const call = new RecordedCall(db, {
    key: prepared.key,
    request: read.body,
    messages: read.messages,
    tools: read.tools,
    sent: outgoing?.body ?? null,
    sentMessages: outgoing?.count ?? null,
    streamed: read.stream,
    pipeline: steps,
  });
  if (refusal) {
    await call.finish({ status: refusal.response.status, response: null, error: refusal.error, completion: null });
    return refusal.response;
  }
  try {
    const upstream = protocol.upstream();
    if (!upstream) return fail(call, ownErrorIn(protocol.errorShape, 503, notConfiguredBody(protocol), "proxy"));
    return await forward(protocol, request, call, identity, upstream, outgoing ? JSON.stringify(outgoing.body) : prepared.text, read.body);
  } catch (error) {
    // A bug or a broken configuration (an invalid base URL in the environment): answered, and recorded like any failure.
    const { status, body } = describeProxyError(error);
    return fail(call, ownErrorIn(protocol.errorShape, status, body, "proxy"));
  }
}

export function notConfiguredBody(protocol: Protocol) {
  return openAIErrorBody("upstream_not_configured", `Context Lab has no upstream to forward to: ${protocol.notConfigured}`, {
    code: "upstream_not_configured",
  });
}

async function fail(call: RecordedCall, failure: Failure): Promise<Response> {
  await call.finish({ status: failure.response.status, response: null, error: failure.error, completion: null });
  return failure.response;
}

/** The assembler, telling `onAnswer` the answer when the stream completed without error. */
function noticed(assembler: StreamAssembler, onAnswer: (answer: Record<string, unknown>) => void): StreamAssembler {
  return {
    get chunks() {
      return assembler.chunks;
    },
    get streamError() {
      return assembler.streamError;
    },
    add: (message) => assembler.add(message),
    response: () => assembler.response(),
    outcome() {
      onAnswer(assembler.response());
      return assembler.outcome();
    },
  };
}

async function forward(
  protocol: Protocol,
  request: Request,
  call: RecordedCall,
  identity: AgentIdentity,
  upstream: UpstreamConfig,
  payload: string,
  body: Record<string, unknown>,
): Promise<Response> {
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  let response: Response;
  try {
    response = await fetchUpstream(protocol.url(upstream, new URL(request.url).search), {
      method: "POST",
      headers: protocol.headers(request.headers, upstream, identity),
      body: payload,
      signal: watch.signal,
    });
  } catch (error) {
    watch.dispose();
    return fail(call, callFailure(protocol, upstream, watch, error));
  }
  const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (response.ok && eventStream && response.body) {
    // Reading starts now; the agent gets the headers and the first byte once the request is journaled (D5).
    const passed = passStream(call, watch, response, {
      assembler: () => noticed(protocol.assembler(), (answer) => protocol.answered?.(call.db, body, answer)),
    });
    try {
      await call.journaled;
    } catch (error) {
      watch.dispose();
      void passed.body?.cancel().catch(() => undefined);
      throw error;
    }
    return passed;
  }
  let text: string;
  try {
    text = await awaitUpstream(response.text());
  } catch (error) {
    return fail(call, callFailure(protocol, upstream, watch, error));
  } finally {
    watch.dispose();
  }
  const answer = parseMaybeJson(text);
  // D5: the outcome is in the journal before the agent gets it.
  await call.finish({
    status: response.status,
    response: answer,
    error: response.ok ? null : { ...describeUpstreamError(response.status, answer, response.headers) },
    completion: response.ok ? protocol.outcome(answer) : null,
  });
  if (response.ok) protocol.answered?.(call.db, body, answer);
  return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
}

/** No usable answer came: a timeout (504), the agent gone (499, recorded only), or the upstream unreachable (502). */
export function callFailure(protocol: Protocol, upstream: UpstreamConfig, watch: CallWatch, error: unknown): Failure {
  const reason = watch.reason;
  if (reason?.kind === "client")
    return ownErrorIn(protocol.errorShape, CLIENT_CLOSED_REQUEST, openAIErrorBody("client_closed_request", reason.message), "client");
  if (reason?.kind === "timeout") {
    const body = openAIErrorBody("upstream_timeout", `${upstream.baseUrl} did not answer in time: ${reason.message}`, { code: "upstream_timeout" });
    return ownErrorIn(protocol.errorShape, 504, body, "proxy");
  }
  const network = networkErrorOf(error);
  const body = openAIErrorBody("upstream_unreachable", `cannot reach the upstream ${upstream.baseUrl}: ${network.message}`, {
    code: network.code ?? "upstream_unreachable",
  });
  return ownErrorIn(protocol.errorShape, 502, body, "proxy");
}
