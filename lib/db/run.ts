import "server-only";
import { describeDatabase, postgresPoolOf, sqliteConnectionOf, type Database, type Transaction } from "./client";
import { BACKEND_PROCESS, inTransactionScope, numbered, runOnConnection, TrackingPool, type TransactionScope } from "./postgres-connection";
import { sqliteParam, type SqliteConnection, type StatementValue } from "./sqlite-connection";
import { ConflictError, mapDatabaseError, NotFoundError, type DatabaseDescription } from "./errors";
import type { Branch as BranchRow } from "./generated/sqlite/client";

export type { BranchRow };

/**
 * Interactive transaction limits. Fifty writers queued on one branch wait for
 * each other's row lock (PostgreSQL) or the connection mutex (SQLite), and an
 * import writes thousands of rows in one go, so both are far above Prisma's
 * defaults (2 s / 5 s).
 */
const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 60_000 } as const;

/** Runs one read or single-statement write; Prisma and driver errors come out as storage errors. */
export async function runQuery<T>(db: Database, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw mapDatabaseError(error, describeDatabase(db));
  }
}

/** A deadlocked or serialization-failed transaction runs again this many times in all. */
export const TRANSACTION_ATTEMPTS = 8;

export interface RetryOptions {
  /** Runs in all, the first included. */
  attempts: number;
  /** Whether a failure is worth another run. */
  retryable: (error: unknown) => boolean;
  /** Milliseconds to wait after failed run number `attempt` (from 1). */
  pause: (attempt: number) => number;
}

/**
 * The one retry loop: runs `work` again while it fails with a retryable error,
 * at most `attempts` times in all, pausing between runs. (p-retry does the
 * same with more options than we need and a pause that never starts from 0;
 * full jitter spreads colliding writers better.)
 */
export async function retryWhile<T>(work: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!options.retryable(error) || attempt >= options.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, options.pause(attempt)));
    }
  }
}

/**
 * Runs `work` again while it fails with a retryable conflict (PostgreSQL's
 * 40001 serialization failure or 40P01 deadlock: the database rolled the
 * whole transaction back), after a growing, jittered pause.
 */
export function retryConflicts<T>(work: () => Promise<T>, attempts = TRANSACTION_ATTEMPTS): Promise<T> {
  return retryWhile(work, {
    attempts,
    retryable: (error) => ConflictError.isInstance(error) && error.retryable,
    pause: (attempt) => Math.random() * 25 * 2 ** Math.min(attempt, 5),
  });
}

/**
 * Runs `work` in one interactive transaction: everything it wrote is rolled
 * back if it throws, and a deadlock or serialization failure runs it again.
 * Inside, use only `tx`: on SQLite a query on `db` would wait for the
 * transaction that holds the connection.
 */
export function runTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return retryConflicts(() => runQuery(db, () => openTransaction(db, work)));
}

/**
 * `db.$transaction(work)`, with the connection the transaction holds noted
 * for the statements sent on it without Prisma (DB-G6, DB-G7). No retries and
 * no error mapping: `runTransaction` adds those.
 */
export function openTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const start = (scope?: TransactionScope) =>
    db.$transaction((tx) => {
      noteTransaction(db, tx, scope);
      return work(tx);
    }, TRANSACTION_OPTIONS);
  // Only a TrackingPool notes the connection a transaction takes (DB-G7); elsewhere the scope would be work for nothing.
  return postgresPoolOf(db) instanceof TrackingPool ? inTransactionScope(start) : start();
}

/** The connection a transaction holds, for statements sent on it without Prisma (DB-G6, DB-G7). */
export interface HeldConnection {
  /** One statement (marks `?` or from `parameterMark`): the rows it returns, and how many rows it changed. */
  run(sql: string, values: readonly StatementValue[]): Promise<{ changes: number; rows: Record<string, unknown>[] }>;
}

/** Transaction clients and the connection each holds. */
const heldConnections = new WeakMap<object, HeldConnection>();
const sqliteHeld = new WeakMap<SqliteConnection, HeldConnection>();

function heldSqlite(connection: SqliteConnection): HeldConnection {
  let held = sqliteHeld.get(connection);
  if (!held) {
    held = { run: async (sql, values) => connection.runHeld(sql, values.map(sqliteParam)) as { changes: number; rows: Record<string, unknown>[] } };
    sqliteHeld.set(connection, held);
  }
  return held;
}

/**
 * DB-G7: the pool connection the PostgreSQL transaction `tx` holds: the one
 * its scope saw Prisma take, else (a transaction that took it elsewhere)
 * found the first time a statement is sent on it, the transaction naming its
 * server process and the pool its connection to it. Statements go through
 * Prisma's raw path in the rare case neither knows it.
 */
function heldPostgres(pool: TrackingPool, tx: Transaction, scope: TransactionScope | undefined): HeldConnection {
  let found: Promise<ReturnType<TrackingPool["connectionOf"]>> | null = null;
  const named = () => tx.$queryRawUnsafe<{ pid: number }[]>(BACKEND_PROCESS).then(([row]) => pool.connectionOf(Number(row.pid)));
  const connection = () => {
    found ??= (scope?.connection ?? Promise.resolve(null)).then((taken) => taken ?? named());
    return found;
  };
  return {
    run: async (sql, values) => {
      const client = await connection();
      if (client) return runOnConnection(client, sql, values);
      if (/\bRETURNING\b/i.test(sql)) {
        const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(numbered(sql), ...values);
        return { changes: rows.length, rows };
      }
      return { changes: await tx.$executeRawUnsafe(numbered(sql), ...values), rows: [] };
    },
  };
}

/** Notes that `tx` is a transaction opened on `parent` (a client made by createDatabase, or a transaction noted before). */
export function noteTransaction(parent: object, tx: object, scope?: TransactionScope): void {
  const sqlite = sqliteConnectionOf(parent);
  const pool = postgresPoolOf(parent);
  const held = sqlite ? heldSqlite(sqlite) : pool instanceof TrackingPool ? heldPostgres(pool, tx as Transaction, scope) : heldConnections.get(parent);
  if (held) heldConnections.set(tx, held);
}

/** The connection a transaction client's plain statements run on directly (DB-G6, DB-G7); null outside a transaction. */
export function heldConnectionOf(tx: Database | Transaction): HeldConnection | null {
  return heldConnections.get(tx) ?? null;
}

/**
 * DB-G6: a plain statement (marks from `parameterMark`) run in `tx`; how
 * many rows it changed. Inside a transaction it goes to the driver on the
 * connection the transaction holds (on SQLite prepared once and reused);
 * elsewhere through Prisma's raw path. The statements on every recorded call's path
 * (the branch lock, message rows, the library's counters) are written this
 * way: Prisma plans each of its queries anew, which costs more than the
 * statement.
 */
export async function executeIn(tx: Database | Transaction, sql: string, values: readonly StatementValue[]): Promise<number> {
  const held = heldConnections.get(tx);
  return held ? (await held.run(sql, values)).changes : tx.$executeRawUnsafe(sql, ...values);
}

/**
 * DB-G8: a plain SELECT (marks `?`) on the driver directly, outside a
 * transaction: on SQLite on the read connection, prepared once; on
 * PostgreSQL on a pool connection; through Prisma's raw path for a client
 * not made by `createDatabase`. For the reads every recorded call makes (its
 * conversation, the branch list): Prisma plans each of its queries anew,
 * which costs more than the read. Columns come back as the driver reads them
 * (instants as text on SQLite): the caller's row mapper reads them.
 */
export async function readRows(db: Database, sql: string, values: readonly StatementValue[]): Promise<Record<string, unknown>[]> {
  const sqlite = sqliteConnectionOf(db);
  if (sqlite) return sqlite.readDirect(sql, values.map(sqliteParam));
  const pool = postgresPoolOf(db);
  if (pool) return (await runOnConnection(pool, sql, values)).rows;
  return db.$queryRawUnsafe<Record<string, unknown>[]>(providerOf(db) === "postgres" ? numbered(sql) : sql, ...values);
}

/** An instant as a driver or Prisma's raw path reads it (a Date, ISO text, milliseconds). */
export function instantOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(value as string | number);
}

let rowIds = 0;

/**
 * A fresh row id for rows written without Prisma's default (a cuid): unique
 * and, like a cuid, in creation order within a process (the time, then a
 * counter), so rows ordered by creation time and then id (the journal's
 * replay, the exchanges) keep their order within one millisecond.
 */
export function newRowId(prefix: string): string {
  rowIds = (rowIds + 1) % 36 ** 6;
  return `${prefix}${Date.now().toString(36)}${rowIds.toString(36).padStart(6, "0")}${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/** Which database a client or transaction talks to. */
export function providerOf(db: Database | Transaction): DatabaseDescription["provider"] {
  return (db as unknown as { _activeProvider?: string })._activeProvider === "postgresql" ? "postgres" : "sqlite";
}

/** A raw statement's mark for its `index`-th parameter (from 1): `$1`, `$2`... on PostgreSQL, `?` on SQLite. */
export function parameterMark(db: Database | Transaction, index: number): string {
  return providerOf(db) === "postgres" ? `$${index}` : "?";
}

/** Rows of values as a multi-row `VALUES` list: `(?, ?), (?, ?)` (`$1`, `$2`… on PostgreSQL) and the values in order. */
export function valueTuples(db: Database | Transaction, rows: readonly (readonly StatementValue[])[]): { tuples: string; values: StatementValue[] } {
  const postgres = providerOf(db) === "postgres";
  const values: StatementValue[] = [];
  const tuples = rows.map((row) => {
    const marks = row.map((value) => {
      values.push(value);
      return postgres ? `$${values.length}` : "?";
    });
    return `(${marks.join(", ")})`;
  });
  return { tuples: tuples.join(", "), values };
}

/**
 * One row written with a plain INSERT: for writes on a recorded call's path,
 * where Prisma's planning of each query costs more than the write itself;
 * inside a transaction on the connection it holds (`executeIn`). Column
 * names as the schema spells them; values as parameters, every column given
 * (the schema's defaults, cuids and `now()`, are Prisma's, not the database's).
 */
export async function insertRow(db: Database | Transaction, table: string, row: Readonly<Record<string, StatementValue>>): Promise<void> {
  const { tuples, values } = valueTuples(db, [Object.values(row)]);
  await executeIn(
    db,
    `INSERT INTO "${table}" (${Object.keys(row)
      .map((column) => `"${column}"`)
      .join(", ")}) VALUES ${tuples}`,
    values,
  );
}

/** Sets `values` on the row with this id with a plain UPDATE (see `insertRow`); how many rows changed, 0 or 1. */
export async function updateRowById(db: Database | Transaction, table: string, id: string, values: Readonly<Record<string, unknown>>): Promise<number> {
  const columns = Object.keys(values);
  const assignments = columns.map((column, index) => `"${column}" = ${parameterMark(db, index + 1)}`);
  const where = parameterMark(db, columns.length + 1);
  return db.$executeRawUnsafe(`UPDATE "${table}" SET ${assignments.join(", ")} WHERE "id" = ${where}`, ...Object.values(values), id);
}

/** Prisma's "record to update or delete does not exist" (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2025";
}

/** Counter updates a write makes on its branch while holding the branch's lock. */
export interface BranchBump {
  /** Messages appended. */
  length?: number;
  /** Hands out the next checkpoint version. */
  checkpoint?: boolean;
  /** Every write but a fork bumps the revision its rows are stamped with. */
  revision?: boolean;
}

/**
 * Locks a branch for the rest of the transaction and updates its counters.
 * An UPDATE takes the row lock on PostgreSQL (as SELECT ... FOR UPDATE would),
 * so concurrent writers to one branch queue here and each sees the counters
 * its predecessor committed; SQLite runs one transaction at a time anyway.
 */
export async function lockBranch(tx: Transaction, branchId: string, bump: BranchBump = {}): Promise<BranchRow> {
  const held = heldConnectionOf(tx);
  if (held) {
    const { rows } = await held.run(
      `UPDATE "Branch" SET "length" = "length" + ?, "revision" = "revision" + ?, "checkpointCount" = "checkpointCount" + ? WHERE "id" = ? RETURNING *`,
      [bump.length ?? 0, bump.revision ? 1 : 0, bump.checkpoint ? 1 : 0, branchId],
    );
    const row = rows[0] as (Omit<BranchRow, "createdAt"> & { createdAt: unknown }) | undefined;
    if (!row) throw new NotFoundError("branch", branchId);
    return { ...row, createdAt: instantOf(row.createdAt) };
  }
  try {
    return await tx.branch.update({
      where: { id: branchId },
      data: {
        length: { increment: bump.length ?? 0 },
        revision: { increment: bump.revision ? 1 : 0 },
        checkpointCount: { increment: bump.checkpoint ? 1 : 0 },
      },
    });
  } catch (error) {
    if (isRecordNotFound(error)) throw new NotFoundError("branch", branchId);
    throw error;
  }
}

/** Marks a conversation as changed now (the list sorts by it). Lock order: branch, then conversation. */
export async function touchConversation(tx: Transaction, conversationId: string): Promise<void> {
  const held = heldConnectionOf(tx);
  if (!held) {
    await tx.conversation.update({ where: { id: conversationId }, data: { updatedAt: new Date() } });
    return;
  }
  const { changes } = await held.run(`UPDATE "Conversation" SET "updatedAt" = ? WHERE "id" = ?`, [new Date(), conversationId]);
  if (changes === 0) throw new NotFoundError("conversation", conversationId);
}

/** Throws NotFoundError unless the branch exists (list queries would otherwise return [] for a typo). */
export async function requireBranch(client: Transaction, branchId: string): Promise<void> {
  const branch = await client.branch.findUnique({ where: { id: branchId }, select: { id: true } });
  if (!branch) throw new NotFoundError("branch", branchId);
}
