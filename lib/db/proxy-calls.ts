import "server-only";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import type { ProxyCall as ProxyCallRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonValue } from "./json";
import { getExchangeById } from "./exchanges";
import { decodeRequest, encodeRequest, type RequestDelta } from "./request-delta";
import { journalWriterOf } from "./journal-writer";
import { insertRow, newRowId, runQuery, updateRowById } from "./run";

/**
 * The recording proxy's journal (PX-D5): one row per call, written before the
 * agent gets an answer and completed with the outcome, so a call the agent
 * saw succeed survives a crash of the server before it was placed into its
 * conversation. Placing it creates the Exchange with the same id and takes
 * the row out of the journal.
 */
export interface ProxyCallRecord {
  id: string;
  /** The agent's identity key. */
  key: string;
  request: JsonValue;
  sent: JsonValue | null;
  /** The request in canonical form and what the pipeline did. */
  details: JsonValue | null;
  streamed: boolean;
  response: JsonValue | null;
  status: number | null;
  error: JsonValue | null;
  /** The answer in canonical form. */
  outcome: JsonValue | null;
  durationMs: number | null;
  createdAt: string;
  /** Null while the call is under way (or was cut by a crash). */
  endedAt: string | null;
}

export interface CreateProxyCallOptions {
  /** The row's id when the caller named it beforehand (`newProxyCallId`), to queue the call's outcome behind it; else a new one. */
  id?: string;
  key: string;
  request: unknown;
  sent?: unknown;
  details?: unknown;
  streamed?: boolean;
  /** The same agent's previous call: `request` and `sent` are stored as deltas against its own where they extend them (PX-C1). */
  previous?: { id: string; request: unknown; sent: unknown } | null;
}

export interface EndProxyCallOptions {
  response: unknown;
  status: number;
  error: unknown;
  durationMs: number;
  outcome?: unknown;
}

/** A row as stored: `request` and `sent` possibly deltas against the call their base ids name. */
function toProxyCallRecord(row: ProxyCallRow, request: JsonValue, sent: JsonValue | null): ProxyCallRecord {
  return {
    id: row.id,
    key: row.key,
    request,
    sent,
    details: fromNullableJsonText(row.details),
    streamed: row.streamed,
    response: fromNullableJsonText(row.response),
    status: row.status,
    error: fromNullableJsonText(row.error),
    outcome: fromNullableJsonText(row.outcome),
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

/**
 * Journals a call's request; one insert, durable before it resolves. The
 * journal's writes are on every agent's path, so they go to the driver
 * directly, batched with other calls' (DB-J1); a client whose driver is out
 * of reach (not yet connected) writes a plain statement through Prisma.
 */
export async function createProxyCall(db: Database, options: CreateProxyCallOptions): Promise<ProxyCallRecord> {
  const previous = options.previous ?? null;
  const requestDelta = previous === null ? null : encodeRequest(previous.request, options.request);
  const sentDelta = previous === null || options.sent == null || previous.sent == null ? null : encodeRequest(previous.sent, options.sent);
  const row = {
    id: options.id ?? newProxyCallId(),
    key: options.key,
    request: toJsonText(requestDelta ?? options.request, "request"),
    requestBaseId: requestDelta === null ? null : previous!.id,
    sent: toNullableJsonText(sentDelta ?? options.sent, "sent"),
    sentBaseId: sentDelta === null ? null : previous!.id,
    details: toNullableJsonText(options.details, "details"),
    streamed: options.streamed ?? false,
    createdAt: new Date(),
  };
  const writer = journalWriterOf(db);
  await runQuery(db, async () => {
    if (writer) await writer.insert("ProxyCall", row);
    else await insertRow(db, "ProxyCall", row);
  });
  const stored = { ...row, response: null, status: null, error: null, outcome: null, durationMs: null, endedAt: null };
  return toProxyCallRecord(stored, options.request as JsonValue, (options.sent ?? null) as JsonValue | null);
}

/** A new journal row's id. */
export function newProxyCallId(): string {
  return newRowId("c");
}

/**
 * Journals how a call ended, queued behind its request's INSERT: call it once
 * `createProxyCall` has been called for `journaled.id`. With the journal
 * writer (DB-J1) the UPDATE runs after the INSERT on the one connection,
 * without waiting for the INSERT's commit, so an answer that came before the
 * INSERT went out shares its batch and its commit. Resolves once both are
 * committed; the INSERT's failure is the one reported.
 */
export async function endJournaledCall(db: Database, journaled: { id: string; written: Promise<unknown> }, options: EndProxyCallOptions): Promise<void> {
  if (!journalWriterOf(db)) {
    await journaled.written;
    return endProxyCallById(db, journaled.id, options);
  }
  const ended = endProxyCallById(db, journaled.id, options);
  ended.catch(() => undefined);
  await journaled.written;
  await ended;
}

/** Journals how a call ended. */
export async function endProxyCallById(db: Database, id: string, options: EndProxyCallOptions): Promise<void> {
  const values = {
    response: toNullableJsonText(options.response, "response"),
    status: options.status,
    error: toNullableJsonText(options.error, "error"),
    durationMs: Math.round(options.durationMs),
    outcome: toNullableJsonText(options.outcome, "outcome"),
    endedAt: new Date(),
  };
  const writer = journalWriterOf(db);
  const changed = await runQuery(db, () => (writer ? writer.update("ProxyCall", id, values) : updateRowById(db, "ProxyCall", id, values)));
  if (changed === 0) throw new NotFoundError("proxy call", id);
}

/** Takes a call out of the journal once it is in its conversation: its Exchange (same id) holds it from then on. */
export async function removePlacedProxyCall(db: Database, id: string): Promise<void> {
  const writer = journalWriterOf(db);
  await runQuery(db, async () => {
    if (writer) await writer.delete("ProxyCall", id);
    else await db.proxyCall.deleteMany({ where: { id } });
  });
}

export interface UnplacedProxyCallOptions {
  /** Only calls journaled before this instant (calls of processes that are gone). */
  before?: Date;
  /** Default 200. */
  limit?: number;
  /** Rows to skip (ones a caller failed to place and leaves for later). */
  offset?: number;
}

/** Journaled calls not yet in their conversations, oldest first, their request and sent body whole. */
export async function getUnplacedProxyCalls(db: Database, options: UnplacedProxyCallOptions = {}): Promise<ProxyCallRecord[]> {
  const rows = await runQuery(db, () =>
    db.proxyCall.findMany({
      where: options.before ? { createdAt: { lt: options.before } } : {},
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: options.limit ?? 200,
      skip: options.offset ?? 0,
    }),
  );
  const bodies = new BodiesOfCalls(db);
  return Promise.all(rows.map(async (row) => toProxyCallRecord(row, await bodies.request(row), await bodies.sent(row))));
}

/** Calls to follow back before a chain of journal deltas is refused as broken. */
const MAX_DELTA_CHAIN = 10_000;

/**
 * PX-C1: reads journaled bodies whole. A delta's base is the agent's
 * previous call: still a journal row (read the same way), or placed, and
 * then the Exchange with its id (whose request and sent `lib/db` reads
 * whole). A base that is gone (its conversation deleted) is a NotFoundError.
 */
class BodiesOfCalls {
  private readonly requests = new Map<string, Promise<JsonValue>>();
  private readonly sents = new Map<string, Promise<JsonValue | null>>();
  private depth = 0;

  constructor(private readonly db: Database) {}

  request(row: Pick<ProxyCallRow, "id" | "request" | "requestBaseId">): Promise<JsonValue> {
    let read = this.requests.get(row.id);
    if (!read) {
      read = this.decode(row.request, row.requestBaseId, (base) => this.baseBodies(base).then((bodies) => bodies.request));
      this.requests.set(row.id, read);
    }
    return read;
  }

  sent(row: Pick<ProxyCallRow, "id" | "sent" | "sentBaseId">): Promise<JsonValue | null> {
    let read = this.sents.get(row.id);
    if (!read) {
      read = row.sent === null ? Promise.resolve(null) : this.decode(row.sent, row.sentBaseId, (base) => this.baseBodies(base).then((bodies) => bodies.sent));
      this.sents.set(row.id, read);
    }
    return read;
  }

  private async decode(text: string, baseId: string | null, base: (id: string) => Promise<JsonValue | null>): Promise<JsonValue> {
    const stored = fromJsonText(text);
    if (baseId === null) return stored;
    if ((this.depth += 1) > MAX_DELTA_CHAIN) throw new Error(`a journal row's chain of deltas is longer than ${MAX_DELTA_CHAIN} calls`);
    return decodeRequest(await base(baseId), stored as unknown as RequestDelta) as JsonValue;
  }

  private async baseBodies(id: string): Promise<{ request: JsonValue; sent: JsonValue | null }> {
    const row = await runQuery(this.db, () => this.db.proxyCall.findUnique({ where: { id } }));
    if (row) return { request: await this.request(row), sent: await this.sent(row) };
    const exchange = await getExchangeById(this.db, id);
    return { request: exchange.request, sent: exchange.sent };
  }
}
