import "server-only";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import type { ProxyCall as ProxyCallRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonValue } from "./json";
import { insertRow, newRowId, runQuery, updateRowById } from "./run";

/**
 * The recording proxy's journal (D5): one row per call, written before the
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
  key: string;
  request: unknown;
  sent?: unknown;
  details?: unknown;
  streamed?: boolean;
}

export interface EndProxyCallOptions {
  response: unknown;
  status: number;
  error: unknown;
  durationMs: number;
  outcome?: unknown;
}

function toProxyCallRecord(row: ProxyCallRow): ProxyCallRecord {
  return {
    id: row.id,
    key: row.key,
    request: fromJsonText(row.request),
    sent: fromNullableJsonText(row.sent),
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
 * Journals a call's request; one insert, committed (SQLite: synchronous=FULL)
 * before it resolves. Both journal writes are on the agent's path, so they
 * are plain statements (`insertRow`, `updateRowById`): Prisma's planning of
 * a model query took longer than the write.
 */
export async function createProxyCall(db: Database, options: CreateProxyCallOptions): Promise<ProxyCallRecord> {
  const row = {
    id: newRowId("c"),
    key: options.key,
    request: toJsonText(options.request, "request"),
    sent: toNullableJsonText(options.sent, "sent"),
    details: toNullableJsonText(options.details, "details"),
    streamed: options.streamed ?? false,
    createdAt: new Date(),
  };
  await runQuery(db, () => insertRow(db, "ProxyCall", row));
  return toProxyCallRecord({ ...row, response: null, status: null, error: null, outcome: null, durationMs: null, endedAt: null });
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
  const changed = await runQuery(db, () => updateRowById(db, "ProxyCall", id, values));
  if (changed === 0) throw new NotFoundError("proxy call", id);
}

/** Takes a call out of the journal once it is in its conversation: its Exchange (same id) holds it from then on. */
export async function removePlacedProxyCall(db: Database, id: string): Promise<void> {
  await runQuery(db, () => db.proxyCall.deleteMany({ where: { id } }));
}

export interface UnplacedProxyCallOptions {
  /** Only calls journaled before this instant (calls of processes that are gone). */
  before?: Date;
  /** Default 200. */
  limit?: number;
  /** Rows to skip (ones a caller failed to place and leaves for later). */
  offset?: number;
}

/** Journaled calls not yet in their conversations, oldest first. */
export async function getUnplacedProxyCalls(db: Database, options: UnplacedProxyCallOptions = {}): Promise<ProxyCallRecord[]> {
  return runQuery(db, async () => {
    const rows = await db.proxyCall.findMany({
      where: options.before ? { createdAt: { lt: options.before } } : {},
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: options.limit ?? 200,
      skip: options.offset ?? 0,
    });
    return rows.map(toProxyCallRecord);
  });
}
