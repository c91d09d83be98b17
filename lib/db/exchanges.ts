import "server-only";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import type { Exchange as ExchangeRow } from "./generated/sqlite/client";
import { fromJsonText, fromNullableJsonText, toJsonText, toNullableJsonText, type JsonValue } from "./json";
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
  sent?: unknown;
  streamed?: boolean;
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

export function toExchangeRecord(row: ExchangeRow): ExchangeRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    branchId: row.branchId,
    request: fromJsonText(row.request),
    sent: fromNullableJsonText(row.sent),
    response: fromNullableJsonText(row.response),
    status: row.status,
    error: fromNullableJsonText(row.error),
    streamed: row.streamed,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Records a call on a branch as it starts; `updateExchangeById` adds the outcome. */
export async function createExchange(db: Database, branchId: string, options: CreateExchangeOptions): Promise<ExchangeRecord> {
  const request = toJsonText(options.request, "request");
  const sent = toNullableJsonText(options.sent, "sent");
  return runQuery(db, async () => {
    const branch = await db.branch.findUnique({ where: { id: branchId }, select: { conversationId: true } });
    if (!branch) throw new NotFoundError("branch", branchId);
    const row = await db.exchange.create({
      data: { ...(options.id === undefined ? {} : { id: options.id }), conversationId: branch.conversationId, branchId, request, sent, streamed: options.streamed ?? false },
    });
    return toExchangeRecord(row);
  });
}

export async function updateExchangeById(db: Database, exchangeId: string, changes: UpdateExchangeOptions): Promise<ExchangeRecord> {
  const data = {
    sent: changes.sent === undefined ? undefined : toNullableJsonText(changes.sent, "sent"),
    response: changes.response === undefined ? undefined : toNullableJsonText(changes.response, "response"),
    error: changes.error === undefined ? undefined : toNullableJsonText(changes.error, "error"),
    status: changes.status,
    durationMs: changes.durationMs,
  };
  return runQuery(db, async () => {
    try {
      return toExchangeRecord(await db.exchange.update({ where: { id: exchangeId }, data }));
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("exchange", exchangeId);
      throw error;
    }
  });
}

export async function getExchangeById(db: Database, exchangeId: string): Promise<ExchangeRecord> {
  return runQuery(db, async () => {
    const row = await db.exchange.findUnique({ where: { id: exchangeId } });
    if (!row) throw new NotFoundError("exchange", exchangeId);
    return toExchangeRecord(row);
  });
}

/** A conversation's exchanges, oldest first. */
export async function getExchangesByConversationId(
  db: Database,
  conversationId: string,
  options: ExchangeListOptions = {},
): Promise<ExchangeRecord[]> {
  return runQuery(db, async () => {
    const conversation = await db.conversation.findUnique({ where: { id: conversationId }, select: { id: true } });
    if (!conversation) throw new NotFoundError("conversation", conversationId);
    const rows = await db.exchange.findMany({
      where: { conversationId, ...(options.branchId === undefined ? {} : { branchId: options.branchId }) },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: options.limit ?? 500,
      skip: options.offset ?? 0,
    });
    return rows.map(toExchangeRecord);
  });
}
