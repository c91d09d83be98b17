import "server-only";
import { BoundedMap } from "@/lib/context/bounded-map";
import { sessionLineText, SESSION_STREAM_VERSION, SESSION_TABLES, type SessionRequests, type SessionTable } from "@/lib/session/lines";
import { findSessionIssues, parentsFirst, SESSION_KIND, type SessionRows } from "@/lib/session/schema";
import { describeDatabase, type Database, type Transaction } from "./client";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import { getExchangeById } from "./exchanges";
import type { Exchange as ExchangeRow } from "./generated/sqlite/client";
import { fromJsonText, type JsonValue } from "./json";
import { decodeRequest, encodeRequest, type RequestDelta } from "./request-delta";
import { runQuery, runTransaction } from "./run";
import { addLibraryMessages, createLibraryEntry } from "./library";
import { findUnstorableText } from "./text";

type Dated = { createdAt: Date };

function withDates<Row extends Dated & { updatedAt?: Date }>(row: Row): Omit<Row, "createdAt" | "updatedAt"> & { createdAt: string; updatedAt?: string } {
  return { ...row, createdAt: row.createdAt.toISOString(), ...(row.updatedAt ? { updatedAt: row.updatedAt.toISOString() } : {}) };
}

function toDates<Row extends { createdAt: string; updatedAt?: string }>(
  row: Row,
): Omit<Row, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt?: Date } {
  return { ...row, createdAt: new Date(row.createdAt), ...(row.updatedAt ? { updatedAt: new Date(row.updatedAt) } : {}) };
}

const byCreation = [{ createdAt: "asc" as const }, { id: "asc" as const }];
/** Exchange rows read per query while a session is written. */
const EXCHANGE_PAGE = 50;
/** Decoded requests kept while writing exchanges: a stored delta's base is almost always a row just before it. */
const RECENT_REQUESTS = 16;

export interface ExportSessionOptions {
  /** Request bodies as deltas against the call before (default), or left out (SE-5). */
  requests?: SessionRequests;
}

/** A session being written: its conversation's title (for the file name) and its lines, read as they are taken. */
export interface ExportSessionResult {
  title: string;
  lines: AsyncGenerator<string, void, undefined>;
}

/** Every row but the exchanges, read in one transaction; the exchanges by id, read later a page at a time. */
async function readSnapshot(tx: Transaction, conversationId: string) {
  const conversation = await tx.conversation.findUnique({ where: { id: conversationId } });
  if (!conversation) throw new NotFoundError("conversation", conversationId);
  const branches = await tx.branch.findMany({ where: { conversationId }, orderBy: byCreation });
  const inBranches = { branchId: { in: branches.map((branch) => branch.id) } };
  return {
    conversation,
    branches,
    messages: await tx.message.findMany({ where: inBranches, orderBy: [{ branchId: "asc" }, { position: "asc" }] }),
    summaries: await tx.summary.findMany({ where: inBranches, orderBy: byCreation }),
    checkpoints: await tx.checkpoint.findMany({ where: inBranches, orderBy: [{ branchId: "asc" }, { version: "asc" }] }),
    offloaded: await tx.offloadedContent.findMany({ where: inBranches, orderBy: byCreation }),
    artifacts: await tx.artifact.findMany({ where: inBranches, orderBy: byCreation }),
    exchangeIds: (await tx.exchange.findMany({ where: { conversationId }, orderBy: byCreation, select: { id: true } })).map((row) => row.id),
    policies: await tx.policy.findMany({ where: { conversationId }, orderBy: byCreation }),
  };
}

type Snapshot = Awaited<ReturnType<typeof readSnapshot>>;

/**
 * One conversation and every row stored for it (SE-1, SE-5): branches, messages,
 * summaries, checkpoints, offloaded content, artifacts, proxy exchanges and
 * the conversation's own policies, exactly as stored. Everything but the
 * exchanges is read in one transaction before this returns (a missing
 * conversation throws here); the exchanges that existed then are read a page
 * at a time as the lines are taken, each request and sent body written as a
 * delta against its branch's call before it, so no history is written twice.
 */
export async function exportSession(db: Database, conversationId: string, options: ExportSessionOptions = {}): Promise<ExportSessionResult> {
  const snapshot = await runTransaction(db, (tx) => readSnapshot(tx, conversationId));
  return { title: snapshot.conversation.title, lines: sessionLines(db, snapshot, options.requests ?? "delta") };
}

async function* sessionLines(db: Database, snapshot: Snapshot, requests: SessionRequests): AsyncGenerator<string, void, undefined> {
  const { conversation } = snapshot;
  yield sessionLineText({ kind: SESSION_KIND, version: SESSION_STREAM_VERSION, exportedAt: new Date().toISOString(), requests });
  yield sessionLineText({ table: "conversation", row: { ...withDates(conversation), updatedAt: conversation.updatedAt.toISOString() } });
  const rows = Object.fromEntries(SESSION_TABLES.map((table) => [table, 0])) as Record<SessionTable, number>;
  const tables = {
    branches: parentsFirst(snapshot.branches.map(withDates), (branch) => branch.parentId),
    messages: snapshot.messages.map(withDates),
    summaries: parentsFirst(snapshot.summaries.map(withDates), (summary) => summary.extendsId),
    checkpoints: snapshot.checkpoints.map(withDates),
    offloaded: snapshot.offloaded.map(withDates),
    artifacts: snapshot.artifacts.map(withDates),
  };
  for (const [table, tableRows] of Object.entries(tables) as [keyof typeof tables, (typeof tables)[keyof typeof tables]][]) {
    // The rows as read, their dates as text: what the line schema of each table takes.
    for (const row of tableRows) yield `${JSON.stringify({ table, row })}\n`;
    rows[table] = tableRows.length;
  }
  for await (const line of exchangeLines(db, snapshot.exchangeIds, requests)) {
    rows.exchanges += 1;
    yield line;
  }
  for (const policy of snapshot.policies) {
    yield sessionLineText({ table: "policies", row: { ...withDates(policy), conversationId: conversation.id, updatedAt: policy.updatedAt.toISOString() } });
    rows.policies += 1;
  }
  yield sessionLineText({ table: "end", rows });
}

/** A body written against `previous` (the branch's call before) as its delta (PX-D6.1), else whole, as the recorder stores it. */
function againstPrevious(previous: { id: string; body: JsonValue } | undefined, body: JsonValue, whole: () => string): { text: string; baseId: string | null } {
  const delta = previous === undefined ? null : encodeRequest(previous.body, body);
  return delta === null ? { text: whole(), baseId: null } : { text: JSON.stringify(delta), baseId: previous!.id };
}

/** A stored body (the request, or a sent body that is there) whole (PX-D6.4, PX-D6.8): as stored, or decoded against its base's. */
async function storedBody(db: Database, row: ExchangeRow, body: "request" | "sent", recent: Map<string, JsonValue>): Promise<JsonValue> {
  const text = row[body] ?? "null";
  const baseId = body === "request" ? row.requestBaseId : row.sentBaseId;
  if (baseId === null) return fromJsonText(text);
  const base = recent.get(baseId);
  if (base !== undefined) return decodeRequest(base, fromJsonText(text) as unknown as RequestDelta) as JsonValue;
  return (await getExchangeById(db, row.id))[body] as JsonValue;
}

/**
 * The exchange lines (SE-5): each request (whole as the agent sent it, D6.4)
 * written as a delta against the request of the exchange before it on its
 * branch, each sent body against the branch's last sent body. A sent body
 * stored in other than JSON.stringify's spelling stays whole, so the import
 * writes back the very text.
 */
async function* exchangeLines(db: Database, ids: readonly string[], requests: SessionRequests): AsyncGenerator<string, void, undefined> {
  const recent = new BoundedMap<string, JsonValue>(RECENT_REQUESTS);
  const recentSent = new BoundedMap<string, JsonValue>(RECENT_REQUESTS);
  const lastRequest = new Map<string, { id: string; body: JsonValue }>();
  const lastSent = new Map<string, { id: string; body: JsonValue }>();
  for (let start = 0; start < ids.length; start += EXCHANGE_PAGE) {
    const page = ids.slice(start, start + EXCHANGE_PAGE);
    const rows = await runQuery(db, () => db.exchange.findMany({ where: { id: { in: page } }, orderBy: byCreation }));
    for (const row of rows) {
      let request: { text: string | null; baseId: string | null } = { text: null, baseId: null };
      if (requests === "delta") {
        const body = await storedBody(db, row, "request", recent);
        recent.set(row.id, body);
        request = againstPrevious(lastRequest.get(row.branchId), body, () => (row.requestBaseId === null ? row.request : JSON.stringify(body)));
        lastRequest.set(row.branchId, { id: row.id, body });
      }
      let sent: { text: string | null; baseId: string | null } = { text: row.sent, baseId: null };
      if (row.sent !== null) {
        const body = await storedBody(db, row, "sent", recentSent);
        recentSent.set(row.id, body);
        const whole = row.sentBaseId === null ? row.sent : JSON.stringify(body);
        if (JSON.stringify(body) === whole) sent = againstPrevious(lastSent.get(row.branchId), body, () => whole);
        else sent = { text: whole, baseId: null };
        lastSent.set(row.branchId, { id: row.id, body });
      }
      const { id, conversationId, branchId, response, status, error, streamed, durationMs, createdAt } = row;
      yield sessionLineText({
        table: "exchanges",
        row: {
          id,
          conversationId,
          branchId,
          request: request.text,
          requestBaseId: request.baseId,
          sent: sent.text,
          sentBaseId: sent.baseId,
          response,
          status,
          error,
          streamed,
          durationMs,
          createdAt: createdAt.toISOString(),
        },
      });
    }
  }
}

/** What an import wrote. */
export interface ImportSessionResult {
  conversationId: string;
  rows: Record<"branches" | "messages" | "summaries" | "checkpoints" | "offloaded" | "artifacts" | "exchanges" | "policies", number>;
}

/**
 * Writes a session file's rows as they are (SE-1), all or nothing; an
 * exchange's request as the file held it, a delta against `requestBaseId` or
 * whole (PX-D6.4). A file whose
 * references point outside it is refused before anything is written (SE-2); a
 * conversation already stored (its id or its record key) is a conflict (SE-3).
 */
export async function importSession(db: Database, file: SessionRows): Promise<ImportSessionResult> {
  const issues = findSessionIssues(file);
  if (issues.length > 0)
    throw new InvalidArgumentError(issues[0].path, `${issues[0].path}: ${issues[0].message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`);
  // IN-3: text the database cannot store is refused with its path, before anything is written.
  const unstorable = findUnstorableText(file, describeDatabase(db).provider);
  if (unstorable) throw new InvalidArgumentError(unstorable.path, `${unstorable.path} ${unstorable.message}`);
  const conversationId = file.conversation.id;
  return runTransaction(db, async (tx) => {
    const existing = await tx.conversation.findFirst({
      where: { OR: [{ id: conversationId }, ...(file.conversation.recordKey ? [{ recordKey: file.conversation.recordKey }] : [])] },
      select: { id: true },
    });
    if (existing) throw new ConflictError("conversation", `conversation '${existing.id}' is already stored: delete it first to import this session again`);
    // A subagent's parent may not be in this database: the link is then dropped, the call id and origin kept.
    const parentId = file.conversation.parentId;
    const parent = parentId === null ? null : await tx.conversation.findUnique({ where: { id: parentId }, select: { id: true } });
    await tx.conversation.create({
      data: { ...toDates(file.conversation), parentId: parent?.id ?? null, updatedAt: new Date(file.conversation.updatedAt) },
    });
    await createLibraryEntry(tx, conversationId, { ...file.conversation, createdAt: new Date(file.conversation.createdAt) });
    // One at a time: a branch's parent must exist before it.
    for (const branch of parentsFirst(file.branches, (row) => row.parentId)) await tx.branch.create({ data: toDates(branch) });
    if (file.messages.length > 0) await tx.message.createMany({ data: file.messages.map(toDates) });
    await addLibraryMessages(tx, conversationId, file.messages, new Date(file.conversation.updatedAt));
    for (const summary of parentsFirst(file.summaries, (row) => row.extendsId)) await tx.summary.create({ data: toDates(summary) });
    if (file.checkpoints.length > 0) await tx.checkpoint.createMany({ data: file.checkpoints.map(toDates) });
    if (file.offloaded.length > 0) await tx.offloadedContent.createMany({ data: file.offloaded.map(toDates) });
    if (file.artifacts.length > 0) await tx.artifact.createMany({ data: file.artifacts.map(toDates) });
    if (file.exchanges.length > 0) await tx.exchange.createMany({ data: file.exchanges.map(toDates) });
    if (file.policies.length > 0)
      await tx.policy.createMany({ data: file.policies.map((policy) => ({ ...toDates(policy), updatedAt: new Date(policy.updatedAt) })) });
    return {
      conversationId,
      rows: {
        branches: file.branches.length,
        messages: file.messages.length,
        summaries: file.summaries.length,
        checkpoints: file.checkpoints.length,
        offloaded: file.offloaded.length,
        artifacts: file.artifacts.length,
        exchanges: file.exchanges.length,
        policies: file.policies.length,
      },
    };
  });
}
