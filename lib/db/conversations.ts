import "server-only";
import type { ToolDefinition } from "@/lib/context/messages";
import { rootBranchRow, toBranchRecord, type BranchRecord } from "./branches";
import type { Database } from "./client";
import { NotFoundError } from "./errors";
import type { Conversation as ConversationRow } from "./generated/sqlite/client";
import { toConversationRecord, type ConversationOrigin, type ConversationRecord } from "./conversation-record";
import { fromJsonText, toJsonObjectText, toNullableJsonText, type JsonObject } from "./json";
import { createLibraryEntry, rewriteLibraryAbout } from "./library";
import { insertMessages, type MessageRecord, type NewMessage } from "./messages";
import { insertRow, instantOf, isRecordNotFound, newRowId, runQuery, runTransaction } from "./run";
import { readRowsWhere } from "./read-batches";
import { PUBLISHED_ONLY } from "./staging";

export { toConversationRecord, type ConversationOrigin, type ConversationRecord };

/** A row of the conversation list. */
export interface ConversationOverview extends ConversationRecord {
  /** Messages stored across all branches (inherited ones counted once, in their owner). */
  messageCount: number;
  branchCount: number;
}

export interface CreateConversationOptions {
  title: string;
  source: string;
  settings?: Record<string, unknown>;
  tools?: ToolDefinition[] | null;
  recordKey?: string | null;
  /** What the source said of its session (F-SF3). */
  origin?: ConversationOrigin | null;
  sessionKey?: string | null;
  /** A subagent's parent conversation and the tool call that started it. */
  parentId?: string | null;
  parentCallId?: string | null;
  /** The root branch's name, default "main". */
  branchName?: string;
  /** The root branch's initial history. */
  messages?: NewMessage[];
}

export interface CreateConversationResult {
  conversation: ConversationRecord;
  branch: BranchRecord;
  messages: MessageRecord[];
}

export interface UpdateConversationOptions {
  title?: string;
  settings?: Record<string, unknown>;
  tools?: ToolDefinition[] | null;
}

export interface ConversationListOptions {
  /** Default 100. */
  limit?: number;
  offset?: number;
}

/**
 * Creates a conversation, its root branch and the branch's initial messages,
 * all or nothing. The rows are plain INSERTs (`insertRow`) with the values
 * Prisma's defaults would give: every agent the proxy meets for the first
 * time creates one, and Prisma's planning of three creates cost more than
 * the writes.
 */
export async function createConversation(db: Database, options: CreateConversationOptions): Promise<CreateConversationResult> {
  const messages = options.messages ?? [];
  const now = new Date();
  const conversation: ConversationRow = {
    id: newRowId("c"),
    title: options.title,
    source: options.source,
    settings: toJsonObjectText(options.settings ?? {}, "settings"),
    tools: toNullableJsonText(options.tools, "tools"),
    recordKey: options.recordKey ?? null,
    origin: toNullableJsonText(options.origin as JsonObject | null | undefined, "origin"),
    sessionKey: options.sessionKey ?? null,
    parentId: options.parentId ?? null,
    parentCallId: options.parentCallId ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const branch = rootBranchRow({
    id: newRowId("c"),
    conversationId: conversation.id,
    name: options.branchName ?? "main",
    length: messages.length,
    createdAt: now,
  });
  return runTransaction(db, async (tx) => {
    await insertRow(tx, "Conversation", conversation);
    await createLibraryEntry(tx, conversation.id, conversation);
    await insertRow(tx, "Branch", branch);
    const records = await insertMessages(tx, branch, 0, messages);
    return { conversation: toConversationRecord(conversation), branch: toBranchRecord(branch), messages: records };
  });
}

/** Conversations, most recently changed first, with message and branch counts. */
export async function getConversations(db: Database, options: ConversationListOptions = {}): Promise<ConversationOverview[]> {
  return runQuery(db, async () => {
    const rows = await db.conversation.findMany({
      where: PUBLISHED_ONLY,
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: options.limit ?? 100,
      skip: options.offset ?? 0,
      include: { branches: { select: { _count: { select: { messages: true } } } } },
    });
    return rows.map(({ branches, ...row }) => ({
      ...toConversationRecord(row),
      messageCount: branches.reduce((total, branch) => total + branch._count.messages, 0),
      branchCount: branches.length,
    }));
  });
}

export async function getConversationById(db: Database, conversationId: string): Promise<ConversationRecord> {
  return runQuery(db, async () => {
    const row = await db.conversation.findUnique({ where: { id: conversationId } });
    if (!row) throw new NotFoundError("conversation", conversationId);
    return toConversationRecord(row);
  });
}

/** The conversation recorded under `recordKey`, or null (the proxy then creates one). */
export async function findConversationByRecordKey(db: Database, recordKey: string): Promise<ConversationRecord | null> {
  return runQuery(db, async () => {
    // Read on every recorded call (DB-G8, DB-G11).
    const [row] = await readRowsWhere(db, "Conversation", "recordKey", recordKey);
    return row
      ? toConversationRecord({ ...(row as unknown as ConversationRow), createdAt: instantOf(row.createdAt), updatedAt: instantOf(row.updatedAt) })
      : null;
  });
}

/**
 * The conversations recorded under one agent key (P-S3 in lib/proxy/README.md): `recordKey` itself
 * and the `<recordKey>#<hash>` conversations of its runs that opened otherwise, oldest first.
 */
export async function getConversationsByRecordKeyFamily(db: Database, recordKey: string): Promise<ConversationRecord[]> {
  return runQuery(db, async () => {
    const rows = await db.conversation.findMany({
      where: { OR: [{ recordKey }, { recordKey: { startsWith: `${recordKey}#` } }], ...PUBLISHED_ONLY },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map(toConversationRecord);
  });
}

/** The published conversation an import of session `sessionKey` made, or null; the newest when several were. */
export async function findConversationBySessionKey(db: Database, sessionKey: string): Promise<ConversationRecord | null> {
  return runQuery(db, async () => {
    const row = await db.conversation.findFirst({ where: { sessionKey, ...PUBLISHED_ONLY }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return row ? toConversationRecord(row) : null;
  });
}

/** A conversation's subagents, oldest first. */
export async function getSubagentsByConversationId(db: Database, conversationId: string): Promise<ConversationRecord[]> {
  return runQuery(db, async () => {
    const rows = await db.conversation.findMany({ where: { parentId: conversationId, ...PUBLISHED_ONLY }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(toConversationRecord);
  });
}

/** Subagents stored under session `sessionKey` (their keys extend it) that no parent has claimed yet. */
export async function getUnlinkedSubagentsBySessionKey(db: Database, sessionKey: string): Promise<ConversationRecord[]> {
  return runQuery(db, async () => {
    const rows = await db.conversation.findMany({
      where: { sessionKey: { startsWith: `${sessionKey}/` }, parentId: null, ...PUBLISHED_ONLY },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return rows.map(toConversationRecord);
  });
}

/** Links a subagent's conversation to the conversation and tool call that started it. */
export async function linkSubagent(db: Database, conversationId: string, parentId: string, parentCallId: string | null): Promise<void> {
  await runQuery(db, async () => {
    await db.conversation.update({ where: { id: conversationId }, data: { parentId, parentCallId } });
  });
}

/** Changes the title, settings (replaced whole) or tools; absent fields stay. */
export async function updateConversationById(db: Database, conversationId: string, changes: UpdateConversationOptions): Promise<ConversationRecord> {
  const data = {
    title: changes.title,
    settings: changes.settings === undefined ? undefined : toJsonObjectText(changes.settings, "settings"),
    tools: changes.tools === undefined ? undefined : toNullableJsonText(changes.tools, "tools"),
  };
  return runTransaction(db, async (tx) => {
    let row: ConversationRow;
    try {
      row = await tx.conversation.update({ where: { id: conversationId }, data });
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("conversation", conversationId);
      throw error;
    }
    await rewriteLibraryAbout(tx, conversationId, row);
    return toConversationRecord(row);
  });
}

/** Turns the stored settings into the new ones; runs inside the transaction that holds the conversation's lock. */
export type SettingsMerge = (current: JsonObject) => Record<string, unknown>;

/**
 * Changes a conversation with its settings merged, not replaced: `merge` gets
 * the settings as committed right now and returns the new ones, inside one
 * transaction that holds the conversation's row lock from the read to the
 * write. Two concurrent PATCHes therefore apply one after the other and
 * neither loses the other's fields. `changes.settings` is ignored; the
 * title and tools, when given, are written in the same transaction.
 */
export async function updateConversationWithSettings(
  db: Database,
  conversationId: string,
  merge: SettingsMerge,
  changes: Omit<UpdateConversationOptions, "settings"> = {},
): Promise<ConversationRecord> {
  const tools = changes.tools === undefined ? undefined : toNullableJsonText(changes.tools, "tools");
  return runTransaction(db, async (tx) => {
    let locked: ConversationRow;
    try {
      // An UPDATE takes the row lock (PostgreSQL) before the read below; SQLite runs one write transaction at a time.
      locked = await tx.conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } });
    } catch (error) {
      if (isRecordNotFound(error)) throw new NotFoundError("conversation", conversationId);
      throw error;
    }
    const settings = toJsonObjectText(merge(fromJsonText<JsonObject>(locked.settings)), "settings");
    const row = await tx.conversation.update({ where: { id: conversationId }, data: { settings, title: changes.title, tools } });
    await rewriteLibraryAbout(tx, conversationId, row);
    return toConversationRecord(row);
  });
}

/**
 * Deletes a conversation and, by cascade, its branches, messages, summaries,
 * checkpoints, content and exchanges. IN-2: it takes the locks in the order
 * every writer does (its branches, then the conversation), so a write racing
 * it either commits before it or finds its branch gone (NotFoundError), and a
 * deadlock runs the delete again instead of leaving the conversation behind.
 */
export async function deleteConversationById(db: Database, conversationId: string): Promise<void> {
  await runTransaction(db, async (tx) => {
    await tx.branch.updateMany({ where: { conversationId }, data: { revision: { increment: 0 } } });
    const { count } = await tx.conversation.deleteMany({ where: { id: conversationId } });
    if (count === 0) throw new NotFoundError("conversation", conversationId);
  });
}
