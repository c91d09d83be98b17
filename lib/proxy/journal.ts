import "server-only";
import { ContextError, sameJson, type Message, type ToolDefinition } from "@/lib/context";
import { BoundedMap } from "@/lib/context/bounded-map";
import {
  ConflictError,
  createConversation,
  createExchange,
  findConversationByRecordKey,
  getExchangeById,
  getUnplacedProxyCalls,
  removePlacedProxyCall,
  DatabaseError,
  DatabaseUnavailableError,
  NotFoundError,
  updateConversationById,
  writeExchangeById,
  type BranchRecord,
  type ConversationRecord,
  type Database,
  type ExchangeRecord,
  type JsonObject,
  type JsonValue,
  type MessageRecord,
  type ProxyCallRecord,
} from "@/lib/db";
import { keepCreated } from "@/lib/memory";
import { yieldToIo } from "@/lib/memory/slices";
import { publishAppended, publishBranchCreated, publishLiveEvent, type ExchangeSummary } from "@/lib/live";
import type { CompletionOutcome } from "@/lib/upstream/assemble";
import { messageFingerprint } from "./canonical";
import { findConversation, rememberConversation } from "./conversations";
import { recordTurns } from "./record-turns";
import type { PipelineStepSummary } from "./proxied-request";
import type { ReloadRound } from "./reload";
import { placeTurns, rememberAppended, withSystemPrompt, type Placement, type Turn } from "./placement";
import { protocolNamed } from "./protocols/registry";
import { rememberOpening } from "./protocols/session";
import { KeyedQueue } from "./queue";

/** Placements redone after a concurrent writer moved a branch, before giving up. */
const MAX_PLACEMENT_ATTEMPTS = 5;

/**
 * One journaled call as the recorder places it: what `RecordedCall` journals,
 * in canonical form, so placing it (also after a restart) never reads a wire
 * format.
 */
export interface RecordRequestOptions {
  /** The journal row's id; the call's Exchange gets the same id. */
  id: string;
  /** The agent's identity key: a recordKey or a conversation id. */
  key: string;
  /** The agent's request body. */
  request: unknown;
  messages: Message[];
  tools: ToolDefinition[] | null;
  /** The body sent upstream after the context pipeline; null when the request was passed through. */
  sent: unknown;
  sentMessages: number | null;
  streamed: boolean;
}

/** How the call ended. */
export interface RecordOutcomeOptions {
  /** HTTP status returned to the agent; null when the server stopped before the call ended. */
  status: number | null;
  /** The upstream's body (parsed JSON, or text), or the assembled stream. */
  response: unknown;
  /** Null on success; `{ source, type, message, ... }` otherwise. */
  error: JsonObject | null;
  durationMs: number | null;
  completion: CompletionOutcome | null;
  /** What the context pipeline did to the request, when it ran. */
  pipeline?: PipelineStepSummary[] | null;
  /** The `reload_offloaded` calls the proxy answered itself, in order. */
  reloads?: ReloadRound[] | null;
}

/** A recorded request, as its outcome needs it. */
export interface RecordedRequest {
  conversation: ConversationRecord;
  branchId: string;
  exchange: ExchangeRecord;
  turns: Turn[];
  summary: ExchangeSummary;
  /** Why the request's turns could not be recorded (the exchange still is), else null. */
  recordingError: string | null;
  /** The branch the reply was appended to with the request's turns (an answer known before they were placed), else null. */
  repliedOn: string | null;
}

async function findOrCreateConversation(db: Database, options: RecordRequestOptions): Promise<{ conversation: ConversationRecord; created: boolean }> {
  const found = await findConversation(db, options.key);
  if (found) return { conversation: found, created: false };
  try {
    const { conversation, branch } = await createConversation(db, { title: options.key, source: "proxy", recordKey: options.key, tools: options.tools });
    // MEM-8: the agent's first placement starts from the empty branch just made, without reading it.
    await keepCreated(db, conversation, branch);
    return { conversation, created: true };
  } catch (error) {
    // Another process created it between the lookup and the insert (recordKey is unique).
    if (!ConflictError.isInstance(error)) throw error;
    const conversation = await findConversationByRecordKey(db, options.key);
    if (!conversation) throw error;
    return { conversation, created: false };
  }
}

/** The exchange of a journaled call: created with the journal's id, or found when a replayed placement made it already. */
async function openExchange(db: Database, branch: BranchRecord, options: RecordRequestOptions, previous: PreviousCall | undefined): Promise<ExchangeRecord> {
  try {
    const base = previous?.branchId === branch.id ? { id: previous.id, request: previous.request, sent: previous.sent } : undefined;
    const { id, request, sent, streamed } = options;
    return await createExchange(db, branch.id, { id, request, previous: base, sent, streamed, conversationId: branch.conversationId });
  } catch (error) {
    if (!ConflictError.isInstance(error)) throw error;
    return getExchangeById(db, options.id);
  }
}

/** An agent's last opened exchange, the base its next request is stored against (PX-D6.5). */
interface PreviousCall {
  id: string;
  branchId: string;
  request: unknown;
  sent: unknown;
}

/** Agents whose last call is kept for D6.5; the least recently seen is forgotten first. */
const PREVIOUS_CALLS = 1000;

/** Journaled calls read per batch while recovering. */
const RECOVERY_BATCH = 200;
/** Calls journaled before this instant belong to an earlier run of the server. */
const PROCESS_STARTED = new Date();
const recovered = new WeakSet<object>();
const INTERRUPTED: JsonObject = { source: "proxy", type: "interrupted", message: "the server stopped before this call ended" };

/** What `RecordedCall` journals with the request besides the wire body: what reading it in canonical form needs. */
export interface JournaledRequest {
  /** The protocol whose reader reads the body again (absent on rows written before PX-C1, which hold `messages`). */
  protocol?: string;
  /** The canonical messages, only when the body alone does not give them (a continuation; rows before PX-C1). */
  messages?: Message[];
  tools: ToolDefinition[] | null;
  sentMessages: number | null;
  pipeline: PipelineStepSummary[] | null;
}

/** What it journals with the outcome: the answer in canonical form. */
export interface JournaledOutcome {
  completion: CompletionOutcome | null;
  reloads: ReloadRound[] | null;
}

/** The journaled request's messages: kept ones, else the body read again by its protocol's reader. */
function messagesOf(entry: ProxyCallRecord, details: Partial<JournaledRequest>): Message[] {
  if (details.messages) return details.messages;
  const protocol = details.protocol === undefined ? null : protocolNamed(details.protocol);
  return protocol ? protocol.readRequest(entry.request).messages : [];
}

function journaled(entry: ProxyCallRecord): Required<Omit<JournaledRequest, "protocol">> & JournaledOutcome {
  const details = (entry.details ?? {}) as Partial<JournaledRequest>;
  const outcome = (entry.outcome ?? {}) as Partial<JournaledOutcome>;
  return {
    messages: messagesOf(entry, details),
    tools: details.tools ?? null,
    sentMessages: details.sentMessages ?? null,
    pipeline: details.pipeline ?? null,
    completion: outcome.completion ?? null,
    reloads: outcome.reloads ?? null,
  };
}

function now(): string {
  return new Date().toISOString();
}

/**
 * IN-5: a failure that placing the call again would meet again: the data
 * itself cannot be stored (text the database refuses, turns the memory
 * layer refuses, a bug). The call is then recorded as failed, with the
 * reason, instead of being placed again at every start; outages, races and
 * a conversation deleted meanwhile are retried (PX-D5.4).
 */
function isLastingFailure(error: unknown): boolean {
  return !(DatabaseUnavailableError.isInstance(error) || ConflictError.isInstance(error) || NotFoundError.isInstance(error));
}

/** A failure's reason in one line: storage and engine errors as they are; a driver's long report by its last line, where it names the cause. */
function reasonOf(error: unknown): string {
  if (ContextError.isInstance(error) || DatabaseError.isInstance(error)) return error.message;
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return (lines.at(-1) ?? text).trim().slice(0, 500);
}

/** A reply to append right after a request's new turns, with the metadata it is stored with. */
interface ReplyTurn {
  turn: Turn;
  metadata: JsonObject;
}

/**
 * Places `turns` and appends what is new, redoing the placement when a
 * concurrent writer got there first. With `reply`, when some of the turns
 * are new (so the branch ends where they go), the reply is appended after
 * them in the same write: where placing it afterwards would put it too.
 */
async function placeAndAppend(
  db: Database,
  conversation: ConversationRecord,
  turns: Turn[],
  metadataOf: (turn: Turn, placement: Placement) => JsonObject,
  options: { preferred?: string; beforeAppend?: (placement: Placement) => Promise<void>; reply?: ReplyTurn } = {},
): Promise<{ placement: Placement; appended: MessageRecord[]; replied: boolean }> {
  for (let attempt = 1; ; attempt += 1) {
    const placement = await placeTurns(db, conversation.id, turns, options.preferred);
    if (placement.forked) publishBranchCreated(placement.forked);
    if (attempt === 1) await options.beforeAppend?.(placement);
    const fresh = placement.fresh.map((turn) => ({ message: turn.message, metadata: metadataOf(turn, placement) }));
    const reply = fresh.length > 0 ? options.reply : undefined;
    if (reply) fresh.push({ message: reply.turn.message, metadata: reply.metadata });
    try {
      const appended = fresh.length === 0 ? [] : await recordTurns(db, conversation, placement.branch.id, withSystemPrompt(fresh, placement), placement.common);
      rememberAppended(db, conversation.id, placement.branch.id, appended);
      rememberOpening(db, conversation.id, placement.branch, appended);
      return { placement, appended, replied: reply !== undefined };
    } catch (error) {
      if (!ConflictError.isInstance(error) || attempt >= MAX_PLACEMENT_ATTEMPTS) throw error;
    }
  }
}

/** The reply of an answered call as the turn it is recorded as, or null when the call has none. */
function replyOf(exchangeId: string, outcome: RecordOutcomeOptions): ReplyTurn | null {
  const completion = outcome.completion;
  if (!completion?.reply) return null;
  const fingerprint = messageFingerprint(completion.reply);
  // The call's facts under the names imports use (F-SF2); usage stays as the provider sent it, which callFactsOf reads.
  const metadata: JsonObject = {
    recorder: "proxy",
    exchangeId,
    fingerprint,
    at: new Date().toISOString(),
    model: completion.model,
    finishReason: completion.finishReason,
    usage: (completion.usage as JsonObject | null) ?? null,
  };
  if (outcome.durationMs !== null) metadata.latencyMs = Math.round(outcome.durationMs);
  // The provider's id of the answer (chatcmpl-…, resp_…, msg_…), whole or assembled from a stream.
  const responseId = typeof outcome.response === "object" && outcome.response !== null ? (outcome.response as { id?: unknown }).id : undefined;
  if (typeof responseId === "string") metadata.responseId = responseId;
  if (outcome.pipeline) metadata.pipeline = outcome.pipeline as unknown as JsonValue;
  if (outcome.reloads?.length) metadata.reloads = outcome.reloads as unknown as JsonValue;
  return { turn: { message: completion.reply, fingerprint }, metadata };
}

function summarize(exchange: ExchangeRecord, extra: Partial<ExchangeSummary> & Pick<ExchangeSummary, "requestMessages" | "sentMessages">): ExchangeSummary {
  return {
    id: exchange.id,
    branchId: exchange.branchId,
    replyBranchId: null,
    status: exchange.status,
    streamed: exchange.streamed,
    durationMs: exchange.durationMs,
    error: exchange.error,
    model: null,
    usage: null,
    finishReason: null,
    createdAt: exchange.createdAt,
    ...extra,
  };
}

/**
 * Records proxied calls into conversations. Each agent's writes (its
 * requests' turns, then each answer) run one at a time in arrival order on
 * a queue keyed by the agent's identity, off the response path: the agent
 * never waits for the database beyond the conversation lookup.
 */
export class ProxyRecorder {
  private readonly queue = new KeyedQueue();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly previous = new BoundedMap<string, PreviousCall>(PREVIOUS_CALLS);

  /** Records the request's new turns and opens its exchange; resolves once committed. A failure is logged here (and rejects). */
  recordRequest(db: Database, options: RecordRequestOptions): Promise<RecordedRequest> {
    const recording = this.queue.run(options.key, async () => {
      await yieldToIo();
      return this.writeRequestLogged(db, options);
    });
    // Handled: whoever awaits it sees the rejection; the log line is written by writeRequestLogged.
    recording.catch(() => undefined);
    return recording;
  }

  /** Records how the call ended: the reply as the next turn, the exchange's outcome; true once the call is placed. Never rejects; failures are logged. */
  recordOutcome(db: Database, key: string, request: Promise<RecordedRequest>, outcome: RecordOutcomeOptions): Promise<boolean> {
    return this.queue.run(key, async () => {
      await yieldToIo();
      let recorded: RecordedRequest;
      try {
        recorded = await request;
      } catch {
        return false; // The request's own failure was logged where it happened.
      }
      return this.finishCall(db, recorded, outcome);
    });
  }

  /**
   * Records a call whose answer came before its request was placed (a fast
   * upstream, a journaled call placed after a restart): the request's new
   * turns and the reply in one write, then the exchange's outcome; true once
   * the call is placed. Never rejects; failures are logged.
   */
  recordCall(db: Database, request: RecordRequestOptions, outcome: RecordOutcomeOptions): Promise<boolean> {
    return this.queue.run(request.key, async () => {
      await yieldToIo();
      let recorded: RecordedRequest;
      try {
        recorded = await this.writeRequestLogged(db, request, replyOf(request.id, outcome) ?? undefined);
      } catch {
        return false;
      }
      return this.finishCall(db, recorded, outcome);
    });
  }

  private async finishCall(db: Database, recorded: RecordedRequest, outcome: RecordOutcomeOptions): Promise<boolean> {
    try {
      await this.writeOutcome(db, recorded, outcome);
      await removePlacedProxyCall(db, recorded.exchange.id);
      return true;
    } catch (error) {
      // The journal keeps the call: it is placed again at the next start.
      console.error(`[proxy] could not record the outcome of exchange ${recorded.exchange.id}:`, error);
      return false;
    }
  }

  /**
   * Places the journaled calls that no running call will place (PX-D5): those
   * journaled before this process started, cut by a crash or a restart
   * before they were in their conversations. Queued behind each agent's
   * writes like any call; resolves once they are placed.
   */
  async recover(db: Database): Promise<number> {
    let placed = 0;
    // Calls that cannot be placed now (logged) stay journaled for the next start; the next batches skip them.
    let failed = 0;
    for (;;) {
      const pending = await getUnplacedProxyCalls(db, { before: PROCESS_STARTED, limit: RECOVERY_BATCH, offset: failed });
      if (pending.length === 0) return placed;
      const results = await Promise.all(pending.map((entry) => this.replay(db, entry)));
      placed += results.filter(Boolean).length;
      failed += results.filter((result) => !result).length;
    }
  }

  /** Runs `recover` once per database client, in the background (the first proxied call, or the server's start). */
  recoverOnce(db: Database): void {
    if (recovered.has(db)) return;
    recovered.add(db);
    this.track(this.recover(db).catch((error: unknown) => console.error("[proxy] could not place the journaled calls of an earlier run:", error)));
  }

  private replay(db: Database, entry: ProxyCallRecord): Promise<boolean> {
    const details = journaled(entry);
    const request: RecordRequestOptions = {
      id: entry.id,
      key: entry.key,
      request: entry.request,
      messages: details.messages,
      tools: details.tools,
      sent: entry.sent,
      sentMessages: details.sentMessages,
      streamed: entry.streamed,
    };
    const outcome: RecordOutcomeOptions =
      entry.endedAt === null
        ? { status: null, response: null, error: INTERRUPTED, durationMs: null, completion: null, pipeline: details.pipeline }
        : {
            status: entry.status,
            response: entry.response,
            error: (entry.error as JsonObject | null) ?? null,
            durationMs: entry.durationMs,
            completion: details.completion,
            pipeline: details.pipeline,
            reloads: details.reloads,
          };
    return this.recordCall(db, request, outcome);
  }

  /** Notes a call in flight until `done` settles (its outcome queued), so `idle` waits for it too. */
  track(done: Promise<unknown>): void {
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }

  /** Resolves once every call in flight has ended and everything queued is written (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0 || this.queue.size > 0) {
      await Promise.all([...this.inFlight]);
      await this.queue.idle();
    }
  }

  /** `writeRequest`, its failure logged once for every path that records a request. */
  private async writeRequestLogged(db: Database, options: RecordRequestOptions, reply?: ReplyTurn): Promise<RecordedRequest> {
    try {
      return await this.writeRequest(db, options, reply);
    } catch (error) {
      console.error(`[proxy] could not record a request of '${options.key}' (its journal entry is placed at the next start):`, error);
      throw error;
    }
  }

  private async writeRequest(db: Database, options: RecordRequestOptions, reply?: ReplyTurn): Promise<RecordedRequest> {
    let { conversation, created } = await findOrCreateConversation(db, options);
    let changed = created;
    if (options.tools !== null && !sameJson(options.tools ?? null, conversation.tools ?? null)) {
      conversation = await updateConversationById(db, conversation.id, { tools: options.tools });
      changed = true;
    }
    rememberConversation(db, options.key, conversation);
    const turns: Turn[] = options.messages.map((message) => ({ message, fingerprint: messageFingerprint(message) }));
    // Set by the placement's first attempt, before the turns are appended.
    const opened: { exchange?: ExchangeRecord } = {};
    let recordingError: string | null = null;
    let repliedOn: string | null = null;
    const place = (withReply: ReplyTurn | undefined) =>
      placeAndAppend(db, conversation, turns, (turn) => ({ recorder: "proxy", exchangeId: options.id, fingerprint: turn.fingerprint, at: now() }), {
        reply: withReply,
        beforeAppend: async (first) => {
          opened.exchange ??= await openExchange(db, first.branch, options, this.previous.get(options.key));
          this.previous.set(options.key, { id: opened.exchange.id, branchId: opened.exchange.branchId, request: options.request, sent: options.sent });
        },
      });
    try {
      let placed: Awaited<ReturnType<typeof place>>;
      try {
        placed = await place(reply);
      } catch (error) {
        // A reply that cannot be stored must not cost the request its turns: they are recorded alone, the reply after.
        if (!reply || !isLastingFailure(error)) throw error;
        placed = await place(undefined);
      }
      const { placement, appended, replied } = placed;
      if (replied) repliedOn = placement.branch.id;
      if (changed || appended.length > 0) publishAppended(conversation, placement.branch.id, appended, { created });
    } catch (error) {
      // Turns that cannot be stored (a history that breaks tool pairing, text the database refuses) still leave the exchange to say what happened.
      if (!opened.exchange || !isLastingFailure(error)) throw error;
      recordingError = `the request's messages were not recorded: ${reasonOf(error)}`;
      if (changed) publishAppended(conversation, opened.exchange.branchId, [], { created });
    }
    const exchange = opened.exchange;
    if (!exchange) throw new Error("the exchange was not created");
    const requestModel = (options.request as { model?: unknown } | null)?.model;
    const summary = summarize(exchange, {
      model: typeof requestModel === "string" ? requestModel : null,
      requestMessages: turns.length,
      sentMessages: options.sentMessages,
    });
    publishLiveEvent({ type: "exchange-started", conversationId: conversation.id, at: now(), exchange: summary });
    return { conversation, branchId: exchange.branchId, exchange, turns, summary, recordingError, repliedOn };
  }

  private async writeOutcome(db: Database, recorded: RecordedRequest, outcome: RecordOutcomeOptions): Promise<void> {
    const { conversation } = recorded;
    const completion = outcome.completion;
    let replyBranchId: string | null = recorded.repliedOn;
    let recordingError = recorded.recordingError;
    const reply = replyBranchId === null && recordingError === null ? replyOf(recorded.exchange.id, outcome) : null;
    if (reply) {
      try {
        const { placement, appended } = await placeAndAppend(db, conversation, [...recorded.turns, reply.turn], () => reply.metadata, {
          preferred: recorded.branchId,
        });
        replyBranchId = placement.branch.id;
        if (appended.length > 0) publishAppended(conversation, placement.branch.id, appended);
      } catch (error) {
        if (!isLastingFailure(error)) throw error;
        recordingError = `the reply was not recorded: ${reasonOf(error)}`;
      }
    }
    const ended = {
      response: (outcome.response ?? null) as JsonValue,
      status: outcome.status,
      error: (outcome.error ?? (recordingError ? { source: "recorder", type: "recording_failed", message: recordingError } : null)) as JsonValue,
      durationMs: outcome.durationMs === null ? null : Math.round(outcome.durationMs),
    };
    await writeExchangeById(db, recorded.exchange.id, ended);
    const exchange: ExchangeRecord = { ...recorded.exchange, ...ended };
    const summary = summarize(exchange, {
      replyBranchId,
      model: completion?.model ?? recorded.summary.model,
      usage: (completion?.usage as JsonValue | null) ?? null,
      finishReason: completion?.finishReason ?? null,
      requestMessages: recorded.summary.requestMessages,
      sentMessages: recorded.summary.sentMessages,
    });
    publishLiveEvent({ type: "exchange-recorded", conversationId: conversation.id, at: now(), exchange: summary });
  }
}

const RECORDER_KEY = Symbol.for("context-lab.proxy.recorder");
const globalForRecorder = globalThis as typeof globalThis & { [RECORDER_KEY]?: ProxyRecorder };

/** The process's recorder (on `globalThis`, so dev reloads keep one queue per agent). */
export function getProxyRecorder(): ProxyRecorder {
  globalForRecorder[RECORDER_KEY] ??= new ProxyRecorder();
  return globalForRecorder[RECORDER_KEY];
}
