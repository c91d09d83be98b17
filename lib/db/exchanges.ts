import "server-only";
import type { Database, Transaction } from "./client";
import { InvalidArgumentError, NotFoundError } from "./errors";
import type { Exchange as ExchangeRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonValue } from "./json";
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
  /** The call before this one (same conversation): the request is stored as a delta against its request when it shares history (D6). */
  previous?: { id: string; request: unknown };
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

/** The columns that store a request (D6). */
const REQUEST_COLUMNS = { id: true, request: true, requestBaseId: true } as const;
type StoredRequest = Pick<ExchangeRow, "id" | "request" | "requestBaseId">;

/**
 * The requests of exchange rows, read back whole (D6.4): a row without
 * `requestBaseId` holds its request whole (every row written before deltas);
 * one with it holds a delta, decoded along its chain of bases, which are
 * earlier exchanges of its conversation, read in one query.
 */
async function readRequests(db: Database | Transaction, rows: readonly StoredRequest[], conversationId: string): Promise<Map<string, JsonValue>> {
  const requests = new Map<string, JsonValue>();
  const stored = new Map<string, StoredRequest>(rows.map((row) => [row.id, row]));
  if (rows.some((row) => row.requestBaseId !== null))
    for (const row of await db.exchange.findMany({ where: { conversationId }, select: REQUEST_COLUMNS })) stored.set(row.id, row);
  for (const row of rows) {
    if (row.requestBaseId === null) {
      requests.set(row.id, fromJsonText(row.request));
      continue;
    }
    const deltas: RequestDelta[] = [];
    let link: StoredRequest | undefined = row;
    while (link && link.requestBaseId !== null) {
      deltas.push(fromJsonText(link.request) as unknown as RequestDelta);
      link = stored.get(link.requestBaseId);
    }
    if (!link) throw new NotFoundError("exchange", `the base of exchange ${row.id}'s request`);
    requests.set(row.id, decodeChain(fromJsonText(link.request), deltas.reverse()) as JsonValue);
  }
  return requests;
}

function toRecord(row: ExchangeRow, request: JsonValue): ExchangeRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    branchId: row.branchId,
    request,
    sent: fromNullableJsonText(row.sent),
    response: fromNullableJsonText(row.response),
    status: row.status,
    error: fromNullableJsonText(row.error),
    streamed: row.streamed,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Exchange rows as records, their requests read back whole (D6.4). */
export async function toExchangeRecords(db: Database | Transaction, rows: readonly ExchangeRow[]): Promise<ExchangeRecord[]> {
  if (rows.length === 0) return [];
  const requests = await readRequests(db, rows, rows[0].conversationId);
  return rows.map((row) => toRecord(row, requests.get(row.id)!));
}

async function toExchangeRecord(db: Database | Transaction, row: ExchangeRow): Promise<ExchangeRecord> {
  return (await toExchangeRecords(db, [row]))[0];
}

/** Records a call on a branch as it starts; `updateExchangeById` adds the outcome. */
export async function createExchange(db: Database, branchId: string, options: CreateExchangeOptions): Promise<ExchangeRecord> {
  const delta = options.previous === undefined ? null : encodeRequest(options.previous.request, options.request);
  const whole = toJsonText(options.request, "request");
  const request = delta === null ? whole : toJsonText(delta, "request");
  const sent = toNullableJsonText(options.sent, "sent");
  return runQuery(db, async () => {
    const conversationId =
      options.conversationId ?? (await db.branch.findUnique({ where: { id: branchId }, select: { conversationId: true } }))?.conversationId;
    if (conversationId === undefined) throw new NotFoundError("branch", branchId);
    const row = await db.exchange.create({
      data: {
        ...(options.id === undefined ? {} : { id: options.id }),
        conversationId,
        branchId,
        request,
        requestBaseId: delta === null ? null : options.previous!.id,
        sent,
        streamed: options.streamed ?? false,
      },
    });
    return toRecord(row, fromJsonText(whole));
  });
}

function updateData(changes: UpdateExchangeOptions) {
  return {
    sent: changes.sent === undefined ? undefined : toNullableJsonText(changes.sent, "sent"),
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

/** `updateExchangeById` without reading the record back, so its request is not decoded (D6.4): one query. */
export async function writeExchangeById(db: Database, exchangeId: string, changes: UpdateExchangeOptions): Promise<void> {
  const data = updateData(changes);
  const { count } = await runQuery(db, () => db.exchange.updateMany({ where: { id: exchangeId }, data }));
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
