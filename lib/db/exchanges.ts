import "server-only";
import type { Database, Transaction } from "./client";
import { InvalidArgumentError, NotFoundError } from "./errors";
import type { Exchange as ExchangeRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonValue } from "./json";
import { journalWriterOf } from "./journal-writer";
import { decodeChain, encodeRequest, type RequestDelta } from "./request-delta";
import { isRecordNotFound, runQuery } from "./run";

/** One proxied or recorded model call. */
export interface ExchangeRecord {
  id: string;
  conversationId: string;
  branchId: string;
  /** What the agent sent. */
  request: JsonValue;
  /** What was actually sent after the context pipeline; null when it was passed through or not sent yet. */
  sent: JsonValue | null;
  response: JsonValue | null;
  /** HTTP status of the upstream answer. */
  status: number | null;
  error: JsonValue | null;
  streamed: boolean;
  durationMs: number | null;
  createdAt: string;
}

export interface CreateExchangeOptions {
  /** The id to give the row (the proxy's journal id, so a replayed placement finds it); default a new cuid. */
  id?: string;
  request: unknown;
  /** The call before this one (same conversation): the request, and the body sent, are stored as deltas against its own when they share history (PX-D6, PX-D6.8). */
  previous?: { id: string; request: unknown; sent?: unknown };
  sent?: unknown;
  streamed?: boolean;
  /** The branch's conversation, when the caller has it: the branch is then not read for it. */
  conversationId?: string;
}

/** What a finished call adds; absent fields stay as they are. */
export interface UpdateExchangeOptions {
  sent?: unknown;
  response?: unknown;
  status?: number | null;
  error?: unknown;
  durationMs?: number | null;
}

export interface ExchangeListOptions {
  /** Only this branch's exchanges. */
  branchId?: string;
  /** Default 500. */
  limit?: number;
  offset?: number;
}

/** The columns that store a request and the body sent (PX-D6, PX-D6.8). */
const BODY_COLUMNS = { id: true, request: true, requestBaseId: true, sent: true, sentBaseId: true } as const;
type StoredBodies = Pick<ExchangeRow, "id" | "request" | "requestBaseId" | "sent" | "sentBaseId">;

/** The two bodies an exchange may store as a delta: the field and its base id's. */
const BODIES = [
  { text: "request", base: "requestBaseId" },
  { text: "sent", base: "sentBaseId" },
] as const;

/** One body of a row read whole along its chain of bases; null for a `sent` that is null. */
function decodeBody(row: StoredBodies, stored: ReadonlyMap<string, StoredBodies>, body: (typeof BODIES)[number]): JsonValue | null {
  const text = row[body.text];
  if (text === null) return null;
  if (row[body.base] === null) return fromJsonText(text);
  const deltas: RequestDelta[] = [];
  let link: StoredBodies | undefined = row;
  while (link && link[body.base] !== null) {
    deltas.push(fromJsonText(link[body.text] ?? "null") as unknown as RequestDelta);
    link = stored.get(link[body.base]!);
  }
  const first = link?.[body.text];
  if (!link || first == null) throw new NotFoundError("exchange", `the base of exchange ${row.id}'s ${body.text}`);
  return decodeChain(fromJsonText(first), deltas.reverse()) as JsonValue;
}

/**
 * The request and sent body of exchange rows, read back whole (PX-D6.4, PX-D6.8):
 * a row without a base id holds the body whole (every row written before
 * deltas); one with it holds a delta, decoded along its chain of bases,
 * which are earlier exchanges of its conversation, read in one query.
 */
async function readBodies(
  db: Database | Transaction,
  rows: readonly StoredBodies[],
  conversationId: string,
): Promise<Map<string, { request: JsonValue; sent: JsonValue | null }>> {
  const stored = new Map<string, StoredBodies>(rows.map((row) => [row.id, row]));
  if (rows.some((row) => row.requestBaseId !== null || row.sentBaseId !== null))
    for (const row of await db.exchange.findMany({ where: { conversationId }, select: BODY_COLUMNS })) stored.set(row.id, row);
  return new Map(rows.map((row) => [row.id, { request: decodeBody(row, stored, BODIES[0])!, sent: decodeBody(row, stored, BODIES[1]) }]));
}

function toRecord(row: ExchangeRow, bodies: { request: JsonValue; sent: JsonValue | null }): ExchangeRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    branchId: row.branchId,
    request: bodies.request,
    sent: bodies.sent,
    response: fromNullableJsonText(row.response),
    status: row.status,
    error: fromNullableJsonText(row.error),
    streamed: row.streamed,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Exchange rows as records, their requests read back whole (PX-D6.4). */
export async function toExchangeRecords(db: Database | Transaction, rows: readonly ExchangeRow[]): Promise<ExchangeRecord[]> {
  if (rows.length === 0) return [];
  const bodies = await readBodies(db, rows, rows[0].conversationId);
  return rows.map((row) => toRecord(row, bodies.get(row.id)!));
}

async function toExchangeRecord(db: Database | Transaction, row: ExchangeRow): Promise<ExchangeRecord> {
  return (await toExchangeRecords(db, [row]))[0];
}

/** Records a call on a branch as it starts; `updateExchangeById` adds the outcome. */
export async function createExchange(db: Database, branchId: string, options: CreateExchangeOptions): Promise<ExchangeRecord> {
  const previous = options.previous;
  const delta = previous === undefined ? null : encodeRequest(previous.request, options.request);
  // A delta's kept items were written out as JSON when compared (PX-D6): the request is stored, and checked storable, through it.
  const request = toJsonText(delta ?? options.request, "request");
  const sentDelta = previous?.sent == null || options.sent == null ? null : encodeRequest(previous.sent, options.sent);
  const sent = toNullableJsonText(sentDelta ?? options.sent, "sent");
  return runQuery(db, async () => {
    const conversationId =
      options.conversationId ?? (await db.branch.findUnique({ where: { id: branchId }, select: { conversationId: true } }))?.conversationId;
    if (conversationId === undefined) throw new NotFoundError("branch", branchId);
    const data = {
      conversationId,
      branchId,
      request,
      requestBaseId: delta === null ? null : previous!.id,
      sent,
      sentBaseId: sentDelta === null ? null : previous!.id,
      streamed: options.streamed ?? false,
    };
    // The bodies as given (a parsed request, not copied again: a growing session's is megabytes).
    const bodies = { request: options.request as JsonValue, sent: (options.sent ?? null) as JsonValue | null };
    // A recorded call's exchange (its id the journal's) is written with the journal's batches (DB-J1).
    const writer = options.id === undefined ? null : journalWriterOf(db);
    if (writer && options.id !== undefined) {
      const row = { id: options.id, ...data, response: null, status: null, error: null, durationMs: null, createdAt: new Date() };
      await writer.insert("Exchange", row);
      return toRecord(row, bodies);
    }
    const row = await db.exchange.create({ data: { ...(options.id === undefined ? {} : { id: options.id }), ...data } });
    return toRecord(row, bodies);
  });
}

function updateData(changes: UpdateExchangeOptions) {
  return {
    sent: changes.sent === undefined ? undefined : toNullableJsonText(changes.sent, "sent"),
    // A body written again is whole.
    sentBaseId: changes.sent === undefined ? undefined : null,
    response: changes.response === undefined ? undefined : toNullableJsonText(changes.response, "response"),
    error: changes.error === undefined ? undefined : toNullableJsonText(changes.error, "error"),
    status: changes.status,
    durationMs: changes.durationMs,
  };
}

export async function updateExchangeById(db: Database, exchangeId: string, changes: UpdateExchangeOptions): Promise<ExchangeRecord> {
  const data = updateData(changes);
  return runQuery(db, async () => {
    try {
      return await toExchangeRecord(db, await db.exchange.update({ where: { id: exchangeId }, data }));
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("exchange", exchangeId);
      throw error;
    }
  });
}

/** `updateExchangeById` without reading the record back, so its request is not decoded (PX-D6.4): one statement, with the journal's batches (DB-J1). */
export async function writeExchangeById(db: Database, exchangeId: string, changes: UpdateExchangeOptions): Promise<void> {
  const data = updateData(changes);
  const writer = journalWriterOf(db);
  const values = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as Record<string, string | number | null>;
  const count = await runQuery(db, async () =>
    writer ? writer.update("Exchange", exchangeId, values) : (await db.exchange.updateMany({ where: { id: exchangeId }, data })).count,
  );
  if (count === 0) throw new NotFoundError("exchange", exchangeId);
}

export async function getExchangeById(db: Database, exchangeId: string): Promise<ExchangeRecord> {
  return runQuery(db, async () => {
    const row = await db.exchange.findUnique({ where: { id: exchangeId } });
    if (!row) throw new NotFoundError("exchange", exchangeId);
    return toExchangeRecord(db, row);
  });
}

/** A conversation's exchanges, oldest first. */
export async function getExchangesByConversationId(db: Database, conversationId: string, options: ExchangeListOptions = {}): Promise<ExchangeRecord[]> {
  return runQuery(db, async () => {
    const conversation = await db.conversation.findUnique({ where: { id: conversationId }, select: { id: true } });
    if (!conversation) throw new NotFoundError("conversation", conversationId);
    const rows = await db.exchange.findMany({
      where: { conversationId, ...(options.branchId === undefined ? {} : { branchId: options.branchId }) },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: options.limit ?? 500,
      skip: options.offset ?? 0,
    });
    return toExchangeRecords(db, rows);
  });
}

export interface ExchangePageOptions {
  /** The id of the last exchange of the previous page: this page starts after it. */
  after?: string;
  /** Default 50. */
  limit?: number;
  /** Only calls that failed: an error recorded, or an HTTP status of 400 or more. */
  failedOnly?: boolean;
  /** Also return up to this many exchanges just before the page, newest last (default 0). */
  before?: number;
}

export interface ExchangePageResult {
  /** Oldest first. */
  exchanges: ExchangeRecord[];
  /** Up to `before` exchanges just before the page (of every outcome), oldest first. */
  earlier: ExchangeRecord[];
  /** The cursor of the next page; null on the last one. */
  nextCursor: string | null;
}

/** A failed call: an error, or an answer of 400 and more. */
export const FAILED_EXCHANGE = { OR: [{ error: { not: null } }, { status: { gte: 400 } }] };

/**
 * A page of a conversation's exchanges in call order (created time, then
 * id), read from a cursor: an exchange id, so a page never shifts when new
 * calls arrive after it.
 */
export async function getExchangePageByConversationId(db: Database, conversationId: string, options: ExchangePageOptions = {}): Promise<ExchangePageResult> {
  const limit = options.limit ?? 50;
  return runQuery(db, async () => {
    const conversation = await db.conversation.findUnique({ where: { id: conversationId }, select: { id: true } });
    if (!conversation) throw new NotFoundError("conversation", conversationId);
    let start: { createdAt: Date; id: string } | null = null;
    if (options.after !== undefined) {
      start = await db.exchange.findFirst({ where: { id: options.after, conversationId }, select: { createdAt: true, id: true } });
      if (!start) throw new InvalidArgumentError("after", `cursor ${options.after} is not a call of conversation ${conversationId}`);
    }
    const afterStart = start ? { OR: [{ createdAt: { gt: start.createdAt } }, { createdAt: start.createdAt, id: { gt: start.id } }] } : {};
    const rows = await db.exchange.findMany({
      where: { conversationId, AND: [afterStart, options.failedOnly ? FAILED_EXCHANGE : {}] },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: limit + 1,
    });
    const page = rows.slice(0, limit);
    let earlier: ExchangeRow[] = [];
    if ((options.before ?? 0) > 0 && page.length > 0) {
      const first = page[0];
      earlier = await db.exchange.findMany({
        where: { conversationId, OR: [{ createdAt: { lt: first.createdAt } }, { createdAt: first.createdAt, id: { lt: first.id } }] },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: options.before,
      });
      earlier.reverse();
    }
    return {
      exchanges: await toExchangeRecords(db, page),
      earlier: await toExchangeRecords(db, earlier),
      nextCursor: rows.length > limit ? page[page.length - 1].id : null,
    };
  });
}

/** An exchange and up to `before` exchanges of its conversation just before it, oldest first. */
export async function getExchangeWithEarlierById(
  db: Database,
  exchangeId: string,
  before: number,
): Promise<{ exchange: ExchangeRecord; earlier: ExchangeRecord[] }> {
  return runQuery(db, async () => {
    const row = await db.exchange.findUnique({ where: { id: exchangeId } });
    if (!row) throw new NotFoundError("exchange", exchangeId);
    const earlier = await db.exchange.findMany({
      where: { conversationId: row.conversationId, OR: [{ createdAt: { lt: row.createdAt } }, { createdAt: row.createdAt, id: { lt: row.id } }] },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: before,
    });
    const [exchange, ...older] = await toExchangeRecords(db, [row, ...earlier.reverse()]);
    return { exchange, earlier: older };
  });
}
