import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { StatementValue } from "./sqlite-connection";

/** What a transaction's scope learns of the connection Prisma takes for it. */
export interface TransactionScope {
  /** The connection, once the transaction's first `connect()` was made in the scope; null when it failed. */
  connection: Promise<pg.PoolClient | null> | null;
}

const transactionScopes = new AsyncLocalStorage<TransactionScope>();

/** `pg.Pool.connect`'s callback, as `pool.query` passes it. */
type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * DB-G7: on PostgreSQL, the pool connection an interactive transaction holds,
 * so the statements on every recorded call's path can be sent on it directly
 * (DB-G6's PostgreSQL half). Prisma's adapter takes the connection from our
 * pool as the transaction starts (`connect()`, the promise form), inside the
 * scope `openTransaction` runs it in (`inTransactionScope`): the first such
 * call of a scope is the transaction's, so its connection is known without
 * asking the database. Otherwise the pool knows each of its connections by
 * the server process behind it, and the transaction names its own
 * (`pg_backend_pid()`, asked once).
 */
export class TrackingPool extends pg.Pool {
  readonly #byProcess = new Map<number, pg.PoolClient>();

  constructor(config?: pg.PoolConfig) {
    super(config);
    this.on("connect", (client) => this.#byProcess.set(processOf(client), client as pg.PoolClient));
    this.on("remove", (client) => {
      if (this.#byProcess.get(processOf(client)) === client) this.#byProcess.delete(processOf(client));
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback) {
    // The callback form is `pool.query`'s, never a transaction's start.
    if (callback) return super.connect(callback);
    const connecting = super.connect();
    const scope = transactionScopes.getStore();
    if (scope && scope.connection === null) scope.connection = connecting.catch(() => null);
    return connecting;
  }

  /** The pool's connection to the server process `pid`, or null when none is. */
  connectionOf(pid: number): pg.PoolClient | null {
    return this.#byProcess.get(pid) ?? null;
  }
}

/**
 * Runs `start` (Prisma's `$transaction`) in a scope that notes the connection
 * the transaction takes from a `TrackingPool` (the scope's `connection`).
 * Scopes nest: a transaction opened inside another notes its own.
 */
export function inTransactionScope<T>(start: (scope: TransactionScope) => Promise<T>): Promise<T> {
  const scope: TransactionScope = { connection: null };
  return transactionScopes.run(scope, () => start(scope));
}

function processOf(client: pg.PoolClient | pg.Client): number {
  return (client as unknown as { processID: number }).processID;
}

/** The statement that names a transaction's server process. */
export const BACKEND_PROCESS = "SELECT pg_backend_pid() AS pid";

/** A statement's value on PostgreSQL: one a SQLite statement could take too, or a list of texts (`= ANY(?::text[])`). */
export type PostgresValue = StatementValue | readonly string[];

/** A value as `pg` binds it: instants as UTC text, as Prisma stores them in `timestamp(3)` columns. */
export function postgresValue(value: PostgresValue): string | number | boolean | null | readonly string[] {
  return value instanceof Date ? value.toISOString().replace("Z", "") : value;
}

/** `timestamp(3)` (without a zone) holds UTC, as Prisma writes it; `pg` alone would read it as local time. */
const TIMESTAMP_OID = 1114;
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID
      ? (text: string) => new Date(`${text.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** `?` marks as PostgreSQL's `$1`, `$2`…; text already numbered stays as it is. */
export function numbered(sql: string): string {
  let index = 0;
  return sql.includes("?") ? sql.replace(/\?/g, () => `$${++index}`) : sql;
}

/**
 * One statement without Prisma's planning: on the transaction's connection
 * (DB-G7), or on any connection of the pool for a read outside one (DB-G8).
 * Sent unnamed, as Prisma's own are: a named statement would stay
 * prepared on a server connection that a pooler in front of PostgreSQL
 * (PgBouncer in transaction mode) may hand to another client. The rows a
 * statement returns, and how many rows it changed.
 */
export async function runOnConnection(
  client: pg.PoolClient | pg.Pool,
  sql: string,
  values: readonly PostgresValue[],
): Promise<{ changes: number; rows: Record<string, unknown>[] }> {
  const result = await client.query({ text: numbered(sql), values: values.map(postgresValue), types });
  return { changes: result.rowCount ?? 0, rows: result.rows as Record<string, unknown>[] };
}
