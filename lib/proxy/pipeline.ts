import "server-only";
import { database } from "@/lib/api/database";
import { readBodyText, requireShallowJson } from "@/lib/api/http";
import type { Message, ToolDefinition } from "@/lib/context";
import type { ConversationRecord, Database } from "@/lib/db";
import { MAX_REQUEST_BYTES } from "@/lib/security/origin";
import { RecordedCall } from "./call";
import { messageFingerprint } from "./canonical";
import { lookupConversation } from "./conversations";
import { describeProxyError, openAIErrorBody, ProxyRequestError } from "./errors";
import { CallWatch, describeUpstreamError, networkErrorOf, parseMaybeJson, passthroughHeaders } from "@/lib/upstream/forward";
import { identifyAgent, type AgentIdentity } from "./identify";
import { buildProxiedRequest, wantsPipeline, type PipelineOutcome, type PipelineStepSummary } from "./proxied-request";
import { errorResponseIn, ownErrorIn } from "./protocols/errors";
import { conversationKeyOf } from "./protocols/session";
import type { Protocol, ReadRequest } from "./protocols/types";
import { answerReloads, MAX_RELOAD_ROUNDS, RELOAD_TOOL_NAME, reloadCallsOf, type ReloadLoop, type ReloadRound } from "./reload";
import { requireStorableRequest } from "./storable";
import { passStream, type StreamAssembler } from "./stream";
import { awaitUpstream, fetchUpstream } from "./timing";
import type { UpstreamConfig } from "@/lib/upstream/settings";

/**
 * The one pipeline every recorded protocol goes through (README.md, "The
 * pipeline"): read → identify → build → forward → stream or assemble →
 * journal → place. A protocol (`protocols/`) only reads its body, writes a
 * processed history back and reads its answer; everything here is shared.
 */

/** Status recorded when the agent hung up before the answer (nginx's convention; never sent). */
const CLIENT_CLOSED_REQUEST = 499;

type Failure = ReturnType<typeof ownErrorIn>;

interface Prepared {
  db: Database;
  /** The agent's body as it came: forwarded byte for byte unless the pipeline changed it (PX-O1). */
  text: string;
  read: ReadRequest;
  /** The messages came from earlier calls too (a Responses continuation). */
  continued: boolean;
  key: string;
  conversation: ConversationRecord | null;
}

/**
 * The agent's body as text, read once: size-limited as it arrives, and its
 * nesting checked before anything parses it (BD-3: the readers, the recorder
 * and the pipeline walk what is parsed; the upstream, what is passed through).
 */
export async function readAgentBody(request: Request): Promise<string> {
  const text = await readBodyText(request, MAX_REQUEST_BYTES);
  requireShallowJson(text);
  return text;
}

/** Read and identify: the body, the agent's conversation and, for a continuation, the history it continues. */
async function prepare(protocol: Protocol, request: Request, identity: AgentIdentity): Promise<Prepared> {
  const text = await readAgentBody(request);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ProxyRequestError(`the request body is not valid JSON: ${(error as Error).message}`);
  }
  const db = database();
  requireStorableRequest(body);
  const read = protocol.readRequest(body);
  // P-S3: a continuation is judged by the history it continues, resolved under the agent's key.
  const continued = (await protocol.continued?.(db, await lookupConversation(db, identity.key), read.body)) ?? null;
  const key = await conversationKeyOf(db, identity, continued ?? read.messages, continued ? {} : { body: read.body });
  const conversation = await lookupConversation(db, key);
  return { db, text, read: continued ? { ...read, messages: continued } : read, continued: continued !== null, key, conversation };
}

/** What goes upstream. */
interface Plan {
  /** The body forwarded when the pipeline changed the request; null: the agent's bytes go as they came. */
  sent: Record<string, unknown> | null;
  /** Messages in `sent`, for the exchange's summary. */
  sentMessages: number | null;
  steps: PipelineStepSummary[] | null;
  reloads: ReloadLoop | null;
  refusal: Failure | null;
}

const PASSED_THROUGH: Plan = { sent: null, sentMessages: null, steps: null, reloads: null, refusal: null };

/** PX-O1: the builder left every message and the tool list as the agent sent them. */
function unchanged(read: ReadRequest, outcome: PipelineOutcome): boolean {
  const { messages, tools } = outcome.request;
  if (messages.length !== read.messages.length || tools.length !== (read.tools?.length ?? 0)) return false;
  return messages.every((message, index) => message === read.messages[index] || messageFingerprint(message) === messageFingerprint(read.messages[index]));
}

/** PX-L1: the reply limit the settings set, when the agent's body sets none; else null. */
function limitToAdd(protocol: Protocol, body: Record<string, unknown>, outputLimit: number | null): number | null {
  return outputLimit !== null && !protocol.outputLimit.fields.some((field) => body[field] !== undefined) ? outputLimit : null;
}

/**
 * The agent's body with the processed history written in place of its own
 * (the keys it had keep their order; superseded ones go), and `limit` in the
 * field the model accepts (PX-L1).
 */
function rewrite(protocol: Protocol, body: Record<string, unknown>, messages: Message[], tools: ToolDefinition[], limit: number | null) {
  const written = protocol.writeHistory(messages, tools);
  const sent: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(body)) {
    if (field in written) sent[field] = written[field];
    else if (!protocol.supersededFields.includes(field)) sent[field] = value;
  }
  for (const [field, value] of Object.entries(written)) if (!(field in sent)) sent[field] = value;
  if (limit !== null) sent[protocol.outputLimit.fieldFor(typeof body.model === "string" ? body.model : "")] = limit;
  return sent;
}

/** Build: the one request builder on the request's messages when the conversation applies its settings (PX-P1), or the agent's request as it came. */
async function plan(protocol: Protocol, prepared: Prepared): Promise<Plan> {
  const { conversation, read, db } = prepared;
  if (!wantsPipeline(conversation)) return PASSED_THROUGH;
  let outcome: PipelineOutcome;
  try {
    outcome = await buildProxiedRequest(db, conversation, read.messages, read.tools);
  } catch (error) {
    const { status, body } = describeProxyError(error);
    return { ...PASSED_THROUGH, refusal: ownErrorIn(protocol.errorShape, status, body, "pipeline") };
  }
  if (outcome.exceeded) return { ...PASSED_THROUGH, steps: outcome.steps, refusal: budgetRefusal(protocol, conversation, outcome.exceeded) };
  const limit = limitToAdd(protocol, read.body, outcome.outputLimit);
  if (unchanged(read, outcome) && limit === null) return { ...PASSED_THROUGH, steps: outcome.steps };
  const { messages, tools } = outcome.request;
  const sent = rewrite(protocol, read.body, messages, tools, limit);
  return { sent, sentMessages: messages.length, steps: outcome.steps, reloads: reloadLoop(protocol, db, outcome, sent), refusal: null };
}

/** PX-R1: the loop answering `reload_offloaded` when the request offers it (it carries offload markers); null otherwise. */
function reloadLoop(protocol: Protocol, db: Database, outcome: PipelineOutcome, sent: Record<string, unknown>): ReloadLoop | null {
  const { request } = outcome;
  if (!request.tools.some((tool) => tool.function.name === RELOAD_TOOL_NAME)) return null;
  let messages: Message[] = request.messages;
  return {
    source: { db, branchId: outcome.branchId, offloaded: request.offloaded },
    next(answered) {
      messages = [...messages, ...answered];
      return JSON.stringify(rewrite(protocol, sent, messages, request.tools, null));
    },
  };
}

function budgetRefusal(protocol: Protocol, conversation: ConversationRecord, exceeded: NonNullable<PipelineOutcome["exceeded"]>): Failure {
  const why = exceeded.reason ? ` (${exceeded.reason})` : "";
  const message =
    `context budget exceeded: the request built with this conversation's settings needs ${exceeded.tokens} tokens, over the limit of ${exceeded.budget}${why}, ` +
    `for conversation ${conversation.id}; raise tokenBudget in its settings, start a new conversation, or turn applyPipeline off. Nothing was sent upstream.`;
  const body = openAIErrorBody("context_budget_exceeded", message, {
    code: "context_budget_exceeded",
    param: "messages",
    details: { budget: exceeded.budget, tokens: exceeded.tokens },
  });
  const failure = ownErrorIn(protocol.errorShape, 400, body, "pipeline");
  return { response: failure.response, error: { ...failure.error, budget: exceeded.budget, tokens: exceeded.tokens } };
}

/**
 * A recorded call of `protocol`: forwarded to the protocol's upstream
 * (streamed event by event, or whole), answered with exactly what the
 * upstream answered, and journaled before the agent has the answer (PX-D5),
 * to be placed into the agent's conversation on the side.
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
  const planned = await plan(protocol, prepared);
  const call = new RecordedCall(db, {
    key: prepared.key,
    protocol: protocol.name,
    continued: prepared.continued,
    request: read.body,
    messages: read.messages,
    tools: read.tools,
    sent: planned.sent,
    sentMessages: planned.sentMessages,
    streamed: read.stream,
    pipeline: planned.steps,
  });
  try {
    if (planned.refusal) return await fail(call, planned.refusal);
    const upstream = protocol.upstream();
    if (!upstream) return await fail(call, ownErrorIn(protocol.errorShape, 503, notConfiguredBody(protocol), "proxy"));
    const payload = planned.sent ? JSON.stringify(planned.sent) : prepared.text;
    return await forward({ protocol, request, call, identity, upstream, reloads: planned.reloads, agentBody: read.body }, payload);
  } catch (error) {
    // The journal could not be written (nothing is acknowledged then), a bug, or a broken configuration.
    const { status, body } = describeProxyError(error);
    const failure = ownErrorIn(protocol.errorShape, status, body, "proxy");
    await call.finish({ status, response: null, error: failure.error, completion: null }).catch(() => undefined);
    return failure.response;
  }
}

export function notConfiguredBody(protocol: Protocol) {
  return openAIErrorBody("upstream_not_configured", `Context Lab has no upstream to forward to: ${protocol.notConfigured}`, {
    code: "upstream_not_configured",
  });
}

async function fail(call: RecordedCall, failure: Failure, reloads: ReloadRound[] = []): Promise<Response> {
  await call.finish({ status: failure.response.status, response: null, error: failure.error, completion: null, reloads });
  return failure.response;
}

/** One call on its way upstream. */
interface Forwarding {
  protocol: Protocol;
  request: Request;
  call: RecordedCall;
  identity: AgentIdentity;
  upstream: UpstreamConfig;
  reloads: ReloadLoop | null;
  /** The agent's own body (continuations are remembered by it). */
  agentBody: Record<string, unknown>;
}

/** The assembler, telling the protocol the answer when the stream completed without error. */
function noticed(assembler: StreamAssembler, onAnswer: (answer: Record<string, unknown>) => void): StreamAssembler {
  return {
    get chunks() {
      return assembler.chunks;
    },
    get streamError() {
      return assembler.streamError;
    },
    get complete() {
      return assembler.complete;
    },
    add: (message) => assembler.add(message),
    response: () => assembler.response(),
    answersBeyond: (toolName) => assembler.answersBeyond(toolName),
    outcome() {
      onAnswer(assembler.response());
      return assembler.outcome();
    },
  };
}

/** Forward, then stream or assemble: the answer passed through as the upstream sent it, reload rounds answered on the way (PX-R2). */
async function forward(forwarding: Forwarding, payload: string): Promise<Response> {
  const { protocol, request, call, identity, upstream, reloads, agentBody } = forwarding;
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  const send = (body: string) =>
    fetchUpstream(protocol.url(upstream, new URL(request.url).search), {
      method: "POST",
      headers: protocol.headers(request.headers, upstream, identity),
      body,
      signal: watch.signal,
    });
  let response: Response;
  try {
    response = await send(payload);
  } catch (error) {
    watch.dispose();
    return fail(call, callFailure(protocol, upstream, watch, error));
  }
  const eventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (response.ok && eventStream && response.body) {
    // Reading starts now; the agent gets the headers and the first byte once the request is journaled (PX-D5).
    const passed = passStream(call, watch, response, {
      assembler: () => noticed(protocol.assembler(), (answer) => protocol.answered?.(call.db, agentBody, answer)),
      reloads: reloads && {
        source: reloads.source,
        again: (answered) => send(reloads.next(answered)),
        failedRound: (status, answer) => protocol.streamError(status, answer),
      },
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
  const rounds: ReloadRound[] = [];
  for (;;) {
    const read = await readWhole(response);
    if (read.cut !== null) {
      watch.dispose();
      // Our own timeout or the agent gone: the proxy's answer; the upstream's body cut: what the agent would have got directly.
      return watch.reason !== null ? fail(call, callFailure(protocol, upstream, watch, read.cut), rounds) : cutAnswer(call, response, read, rounds);
    }
    const text = read.text;
    const answer = parseMaybeJson(text);
    const completion = response.ok ? protocol.outcome(answer) : null;
    const calls = reloads && completion && rounds.length < MAX_RELOAD_ROUNDS ? reloadCallsOf(completion.reply) : null;
    if (reloads && calls && completion?.reply) {
      const { messages, round } = await answerReloads(reloads.source, completion.reply, calls);
      rounds.push(round);
      watch.touch();
      try {
        response = await send(reloads.next(messages));
      } catch (error) {
        watch.dispose();
        return fail(call, callFailure(protocol, upstream, watch, error), rounds);
      }
      continue;
    }
    watch.dispose();
    // PX-D5: the outcome is in the journal before the agent gets it.
    await call.finish({
      status: response.status,
      response: answer,
      error: response.ok ? null : { ...describeUpstreamError(response.status, answer, response.headers) },
      completion,
      reloads: rounds,
    });
    if (response.ok) protocol.answered?.(call.db, agentBody, answer);
    return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
  }
}

/** A whole body as far as it came: its bytes, and the error that cut it (null when it came whole). */
interface WholeBody {
  text: string;
  bytes: Uint8Array[];
  cut: unknown;
}

async function readWhole(response: Response): Promise<WholeBody> {
  const bytes: Uint8Array[] = [];
  if (!response.body) return { text: "", bytes, cut: null };
  const reader = response.body.getReader();
  let cut: unknown = null;
  try {
    for (;;) {
      const { done, value } = await awaitUpstream(reader.read());
      if (done) break;
      bytes.push(value);
    }
  } catch (error) {
    cut = error;
  }
  return { text: Buffer.concat(bytes).toString("utf8"), bytes, cut };
}

/**
 * PX-F2: the upstream answered its status and headers, then its body was
 * cut. The agent gets what it would have got directly: the same status and
 * headers, the bytes that came, then the connection ends. Recorded with
 * what came and why it ended.
 */
async function cutAnswer(call: RecordedCall, response: Response, read: WholeBody, rounds: ReloadRound[]): Promise<Response> {
  await call.finish({
    status: response.status,
    response: read.text,
    error: { source: "upstream", type: "body_cut", status: response.status, message: `the upstream's answer ended early: ${networkErrorOf(read.cut).message}` },
    completion: null,
    reloads: rounds,
  });
  return new Response(cutBody(read.bytes, read.cut), {
    status: response.status,
    statusText: response.statusText,
    headers: passthroughHeaders(response.headers),
  });
}

/** A body that sends `bytes` (or an empty chunk, so the headers go out) and then errors with `cause`. */
export function cutBody(bytes: readonly Uint8Array[], cause: unknown): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!sent) {
          sent = true;
          for (const chunk of bytes.length > 0 ? bytes : [new Uint8Array(0)]) controller.enqueue(chunk);
          return;
        }
        // A tick later, so the bytes just written leave the socket before the connection ends.
        await new Promise((resolve) => setImmediate(resolve));
        controller.error(cause);
      },
    },
    { highWaterMark: 0 },
  );
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
