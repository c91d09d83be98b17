import "server-only";
import type { Message, Role, ToolCall } from "@/lib/context/messages";
import type { Database, Transaction } from "./client";
import { ConflictError, InvalidArgumentError, type DatabaseDescription } from "./errors";
import type { Branch as BranchRow, Message as MessageRow } from "./generated/sqlite/client";
import { toJsonText, toNullableJsonText, type JsonObject } from "./json";
import { extensionProblem, objectProblem, readJsonColumn, toolCallsProblem } from "./stored-shapes";
import type { Lineage } from "./lineage";
import { executeIn, lockBranch, newRowId, providerOf, runQuery, runTransaction, touchConversation, valueTuples } from "./run";
import { addLibraryMessages } from "./library";
import type { BranchRecord } from "./branches";
import { requireStorableText } from "./text";
import type { StatementValue } from "./sqlite-connection";
import { lineageOf, type BranchRef } from "./scope";

/** One stored history message: the engine's message plus where and when it was stored. */
export interface MessageRecord {
  id: string;
  /** The branch that owns the row (an ancestor's id for inherited messages). */
  branchId: string;
  /** Index in the branch's full history. */
  position: number;
  tokens: number;
  createdAt: string;
  metadata: JsonObject | null;
  message: Message;
  /** What of the stored row could not be read (IN-6): each left out of `message` or `metadata`. Absent on sound rows. */
  damaged?: string[];
}

/** A message to append; `tokens` is counted by the caller (the engine's counter). */
export interface NewMessage {
  message: Message;
  tokens: number;
  /** Recorded-request info, a failed call's error, what the pipeline did. */
  metadata?: JsonObject | null;
}

export interface AppendMessagesOptions {
  /** Optimistic append: fails with ConflictError unless the history has exactly this many messages. */
  expectedLength?: number;
  /**
   * Fails with ConflictError unless the branch's revision before this write
   * is this one (`branchRevision`): nothing at all (a message, a summary, an
   * artifact) was written to it since it was read at that revision.
   */
  expectedRevision?: number;
}

/**
 * ConflictError unless the locked branch was where the caller read it
 * (`expectedLength`, `expectedRevision`); `branch` is the row as the lock
 * left it, with `appended` messages counted. The position to append at.
 */
export function assertExpected(branch: Pick<BranchRow, "id" | "name" | "length" | "revision">, appended: number, options: AppendMessagesOptions): number {
  const start = branch.length - appended;
  if (options.expectedLength !== undefined && options.expectedLength !== start) {
    throw new ConflictError(
      "branch",
      `branch '${branch.name}' (${branch.id}) has ${start} messages, not the expected ${options.expectedLength}: reload its history and retry`,
    );
  }
  const before = branch.revision - (appended > 0 ? 1 : 0);
  if (options.expectedRevision !== undefined && options.expectedRevision !== before) {
    throw new ConflictError(
      "branch",
      `branch '${branch.name}' (${branch.id}) was written to since it was read (revision ${before}, not ${options.expectedRevision}): reload it and retry`,
    );
  }
  return start;
}

export interface HistoryOptions {
  /** First position to return (default 0). */
  fromPosition?: number;
  /** One past the last position to return (default: the whole history). */
  toPosition?: number;
  /** Only messages with one of these roles. */
  roles?: readonly Role[];
  /** Only messages at these positions. */
  positions?: readonly number[];
  /** Only the last `last` messages of what the other options select (still in position order). */
  last?: number;
}

/** Message counts and stored tokens of a part of a history. */
export interface HistoryTotals {
  messages: number;
  tokens: number;
  /** The same per role (every role present, zero when absent). */
  roles: Record<Role, { messages: number; tokens: number }>;
  /**
   * Assistant messages that end a round (E-R1, the engine's `isFinalAnswer`):
   * no tool calls, and not what is left of a compressed tool chain. A history
   * has this many rounds, plus one when its last non-system message is not one.
   */
  finalAnswers: number;
}

const ROLES: ReadonlySet<string> = new Set<Role>(["system", "user", "assistant", "tool"]);

/** What a message holds beyond the chat fields, stored as one JSON column (null for plain messages). */
type MessageExtension = Pick<Message, "parts" | "cache_control" | "extras" | "engine">;

const EXTENSION_FIELDS = ["parts", "cache_control", "extras", "engine"] as const;

function extensionOf(message: Message): MessageExtension | undefined {
  const extension: Record<string, unknown> = {};
  for (const field of EXTENSION_FIELDS) if (message[field] !== undefined) extension[field] = message[field];
  return Object.keys(extension).length > 0 ? (extension as MessageExtension) : undefined;
}

/**
 * A row as a record. IN-6: a JSON column that does not hold what readers
 * rely on (written by hand, or by a version that checked less) is left out
 * of the message and named in `damaged`; an unknown role reads as "user".
 * The row is shown, marked, instead of failing every read of its branch.
 */
export function toMessageRecord(row: MessageRow): MessageRecord {
  const damaged: string[] = [];
  const role = ROLES.has(row.role) ? (row.role as Role) : "user";
  if (role !== row.role) damaged.push(`role '${row.role}' is not system, user, assistant or tool`);
  const message: Message = { role, content: row.content };
  const toolCalls = readJsonColumn<ToolCall[] | undefined>("toolCalls", row.toolCalls, toolCallsProblem, undefined, damaged);
  if (toolCalls !== undefined) message.tool_calls = toolCalls;
  if (row.toolCallId !== null) message.tool_call_id = row.toolCallId;
  if (row.name !== null) message.name = row.name;
  // Rows stored before the column existed, and plain messages, have none.
  const extension = readJsonColumn<MessageExtension | undefined>("extension", row.extension, extensionProblem, undefined, damaged);
  if (extension !== undefined) Object.assign(message, extension);
  const record: MessageRecord = {
    id: row.id,
    branchId: row.branchId,
    position: row.position,
    tokens: row.tokens,
    createdAt: row.createdAt.toISOString(),
    metadata: readJsonColumn<JsonObject | null>("metadata", row.metadata, objectProblem, null, damaged),
    message,
  };
  if (damaged.length > 0) record.damaged = damaged;
  return record;
}

function toMessageRow(branchId: string, position: number, input: NewMessage, argument: string, provider: DatabaseDescription["provider"]) {
  const { message } = input;
  // IN-3: the columns that hold text as it is (the JSON ones hold escapes).
  requireStorableText(message.content, `${argument}.content`, provider);
  requireStorableText(message.tool_call_id, `${argument}.tool_call_id`, provider);
  requireStorableText(message.name, `${argument}.name`, provider);
  if (!ROLES.has(message.role)) {
    throw new InvalidArgumentError(argument, `${argument}: role '${String(message.role)}' is not system, user, assistant or tool`);
  }
  if (!Number.isInteger(input.tokens) || input.tokens < 0) {
    throw new InvalidArgumentError(argument, `${argument}: tokens must be a non-negative integer, got ${input.tokens}`);
  }
  return {
    branchId,
    position,
    role: message.role,
    content: message.content ?? null,
    toolCalls: message.tool_calls === undefined ? null : toJsonText(message.tool_calls, `${argument}.tool_calls`),
    toolCallId: message.tool_call_id ?? null,
    name: message.name ?? null,
    extension: toNullableJsonText(extensionOf(message), `${argument}.parts`),
    tokens: input.tokens,
    metadata: toNullableJsonText(input.metadata, `${argument}.metadata`),
  };
}

/** The branch messages are inserted on, and its conversation (whose library entry counts them). */
type BranchOfMessages = Pick<BranchRecord, "id" | "conversationId">;

/**
 * Inserts messages at `start`, `start + 1`, ... in one statement. Callers hold
 * the branch lock, which is what makes the positions theirs.
 */
export async function insertMessages(tx: Transaction, branch: BranchOfMessages, start: number, messages: NewMessage[]): Promise<MessageRecord[]> {
  // RL-ST2: Prisma's createManyAndReturn costs about a third of a millisecond a row while the transaction holds
  // the connection (on SQLite every other request waits for it): the rows go in as plain multi-row INSERTs and
  // the records are the rows as written.
  return (await insertMessageRows(tx, branch, start, messages)).map(toMessageRecord);
}

/** Rows per INSERT of the bulk path: 500 rows of a dozen columns stay far under SQLite's and PostgreSQL's parameter limits. */
const BULK_ROWS = 500;
/**
 * RL-ST8: and text per INSERT. Prisma hands a raw statement and its values to
 * its query compiler as one JSON text, synchronously: 19 rows of 1M characters
 * in one INSERT held the thread for seconds; a row past this goes alone.
 */
export const BULK_CHARACTERS = 256 * 1024;

/**
 * Inserts messages at `start`, `start + 1`, ... with plain multi-row INSERTs
 * and returns nothing: Prisma builds a bulk create at about a millisecond a
 * row, on the request thread, which a 100,000-message import cannot afford.
 * The columns are whatever `toMessageRow` fills, so a column added there is
 * written here too. Callers hold the branch lock.
 */
export async function insertMessagesBulk(tx: Transaction, branch: BranchOfMessages, start: number, messages: NewMessage[]): Promise<void> {
  await insertMessageRows(tx, branch, start, messages);
}

/** Inserts the rows of `messages` from `start` in multi-row INSERTs and returns them as written. */
async function insertMessageRows(tx: Transaction, branch: BranchOfMessages, start: number, messages: NewMessage[]): Promise<MessageRow[]> {
  if (messages.length === 0) return [];
  const createdAt = new Date();
  const rows = newMessageRows(branch.id, start, messages, providerOf(tx), createdAt);
  for (const { sql, values } of messageInserts(tx, rows)) await executeIn(tx, sql, values);
  await addLibraryMessages(tx, branch.conversationId, rows, createdAt);
  return rows;
}

/** The rows `messages` are stored as from position `start` on, written at `createdAt`; IN-3 refuses what the database cannot hold. */
export function newMessageRows(
  branchId: string,
  start: number,
  messages: readonly NewMessage[],
  provider: DatabaseDescription["provider"],
  createdAt: Date,
): MessageRow[] {
  return messages.map((input, index) => ({
    id: newRowId("m"),
    ...toMessageRow(branchId, start + index, input, `messages[${index}]`, provider),
    createdAt,
  }));
}

/** RL-ST2, RL-ST8: the multi-row INSERTs that write `rows`, each within one statement's rows and text (marks for `db`'s database). */
export function messageInserts(db: Database | Transaction, rows: readonly MessageRow[]): { sql: string; values: StatementValue[] }[] {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]) as (keyof MessageRow)[];
  const names = columns.map((column) => `"${column}"`).join(", ");
  return bulkBatches(rows, (row) => columns.reduce((sum, column) => sum + textLength(row[column]), 0)).map((batch) => {
    const { tuples, values } = valueTuples(
      db,
      batch.map((row) => columns.map((column) => row[column])),
    );
    return { sql: `INSERT INTO "Message" (${names}) VALUES ${tuples}`, values };
  });
}

/** How many rows, and characters of text, one batch holds at most. */
export interface BatchLimits {
  rows: number;
  characters: number;
}

/** `rows` in runs of at most `limits.rows` rows and, but for a single row, `limits.characters` characters of text (RL-ST8; by default one INSERT's). */
export function bulkBatches<Row>(
  rows: readonly Row[],
  characters: (row: Row) => number,
  limits: BatchLimits = { rows: BULK_ROWS, characters: BULK_CHARACTERS },
): Row[][] {
  const batches: Row[][] = [];
  let batch: Row[] = [];
  let size = 0;
  for (const row of rows) {
    const length = characters(row);
    if (batch.length === limits.rows || (batch.length > 0 && size + length > limits.characters)) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(row);
    size += length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

/** Prisma filter for the messages a lineage's last branch sees in [from, to). */
function historyWhere(lineage: Lineage, from: number, to: number | undefined) {
  return {
    OR: lineage.map((entry) => {
      const until = Math.min(entry.until ?? Infinity, to ?? Infinity);
      return { branchId: entry.branch.id, position: Number.isFinite(until) ? { gte: from, lt: until } : { gte: from } };
    }),
  };
}

/**
 * RL-ST4: a history is read at most this many messages a query, so a long one
 * never holds the connection (SQLite has one) or the thread for the whole read.
 */
export const HISTORY_PAGE_MESSAGES = 2_000;

/**
 * A branch's full history: the parent's history up to the fork point, then
 * the branch's own messages, in position order; each record names the
 * branch that owns it. The lineage in one or two queries however deep the
 * branch is (none with a scope), then one for the messages; `options` select
 * a part of the history (a range, roles, positions, the last n).
 */
export async function getHistoryByBranchId(db: Database, branch: BranchRef, options: HistoryOptions = {}): Promise<MessageRecord[]> {
  const from = options.fromPosition ?? 0;
  if (options.last !== undefined && options.last <= 0) return [];
  return runQuery(db, async () => {
    const lineage = await lineageOf(db, branch);
    const whereFrom = (start: number) => ({
      ...historyWhere(lineage, start, options.toPosition),
      ...(options.roles ? { role: { in: [...options.roles] } } : {}),
      ...(options.positions ? { position: { in: [...options.positions] } } : {}),
    });
    if (options.last === undefined) {
      // RL-ST4: pages keyed on the position; raw turns are append-only, so the pages join into one prefix of the history.
      const records: MessageRecord[] = [];
      for (let start = from; ; ) {
        const rows = await db.message.findMany({ where: whereFrom(start), orderBy: { position: "asc" }, take: HISTORY_PAGE_MESSAGES });
        for (const row of rows) records.push(toMessageRecord(row));
        if (rows.length < HISTORY_PAGE_MESSAGES) return records;
        start = rows[rows.length - 1].position + 1;
      }
    }
    const rows = await db.message.findMany({ where: whereFrom(from), orderBy: { position: "desc" }, take: options.last });
    return rows.reverse().map(toMessageRecord);
  });
}

const ROLE_LIST: readonly Role[] = ["system", "user", "assistant", "tool"];

/**
 * Counts and token sums of a branch's history (or of `[fromPosition,
 * toPosition)` of it) computed by the database: a few queries and no
 * message loaded, however long the history.
 */
export async function getHistoryTotalsByBranchId(
  db: Database,
  branch: BranchRef,
  options: Pick<HistoryOptions, "fromPosition" | "toPosition"> = {},
): Promise<HistoryTotals> {
  return runQuery(db, async () => {
    const where = historyWhere(await lineageOf(db, branch), options.fromPosition ?? 0, options.toPosition);
    const groups = await db.message.groupBy({ by: ["role"], where, _count: { _all: true }, _sum: { tokens: true } });
    // Assistant messages without tool calls (an empty or null `tool_calls` is stored as "[]" or "null"). Stored turns are
    // what agents and models sent, never engine-made chain summaries (recognised by a field, not by text), so each is an answer.
    const answers = await db.message.count({
      where: { AND: [where, { role: "assistant" }, { OR: [{ toolCalls: null }, { toolCalls: { in: ["[]", "null"] } }] }] },
    });
    const roles = Object.fromEntries(ROLE_LIST.map((role) => [role, { messages: 0, tokens: 0 }])) as HistoryTotals["roles"];
    let messages = 0;
    let tokens = 0;
    for (const group of groups) {
      const count = group._count._all;
      const sum = group._sum.tokens ?? 0;
      if (Object.hasOwn(roles, group.role)) roles[group.role as Role] = { messages: count, tokens: sum };
      messages += count;
      tokens += sum;
    }
    return { messages, tokens, roles, finalAnswers: answers };
  });
}

/**
 * Appends messages in one transaction through the bulk path
 * (`insertMessagesBulk`): for imports, which need no records back. Same
 * locking and `expectedLength` check as `appendMessages`.
 */
export async function appendMessagesBulk(db: Database, branchId: string, messages: NewMessage[], options: AppendMessagesOptions = {}): Promise<void> {
  await runTransaction(db, async (tx) => {
    const branch = await lockBranch(tx, branchId, { length: messages.length, revision: messages.length > 0 });
    const start = assertExpected(branch, messages.length, options);
    await insertMessagesBulk(tx, branch, start, messages);
    if (messages.length > 0) await touchConversation(tx, branch.conversationId);
  });
}

/**
 * Appends messages to a branch's history in one transaction and returns
 * them with their positions. Concurrent appends to one branch queue on the
 * branch's lock, so positions never repeat or skip. Raw turns are immutable:
 * there is no update.
 */
export async function appendMessages(db: Database, branchId: string, messages: NewMessage[], options: AppendMessagesOptions = {}): Promise<MessageRecord[]> {
  return runTransaction(db, async (tx) => {
    const branch = await lockBranch(tx, branchId, { length: messages.length, revision: messages.length > 0 });
    const start = assertExpected(branch, messages.length, options);
    const records = await insertMessages(tx, branch, start, messages);
    if (records.length > 0) await touchConversation(tx, branch.conversationId);
    return records;
  });
}
