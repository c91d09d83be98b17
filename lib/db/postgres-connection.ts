import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import type { StatementValue } from "./sqlite-connection";

/**
 * DB-G7: on PostgreSQL, the pool connection an interactive transaction holds,
 * so the statements on every recorded call's path can be sent on it directly
 * (DB-G6's PostgreSQL half). Prisma's adapter takes a connection from our
 * pool when it opens a transaction; `claimingConnection` marks the async
 * context that opens it, and the pool hands the connection it gives out
 * there back to that context as well.
 */
const claims = new AsyncLocalStorage<{ client: pg.PoolClient | null }>();

/** A pool that tells a `claimingConnection` context which connection it handed out. */
export class ClaimingPool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void): void;
  override connect(
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void,
  ): Promise<pg.PoolClient> | void {
    // Plain queries (`pool.query`) take a connection with a callback and give it back themselves: never claimed.
    if (callback) return super.connect(callback);
    const claim = claims.getStore();
    const connecting = super.connect();
    if (!claim) return connecting;
    return connecting.then((client) => {
      claim.client = client;
      return client;
    });
  }
}

/** Runs `work` so that a connection the pool hands out inside it is noted; `claimed()` says which (null before, or on SQLite). */
export function claimingConnection<T>(work: (claimed: () => pg.PoolClient | null) => Promise<T>): Promise<T> {
  const claim: { client: pg.PoolClient | null } = { client: null };
  return claims.run(claim, () => work(() => claim.client));
}

/** A value as `pg` binds it: instants as UTC text, as Prisma stores them in `timestamp(3)` columns. */
export function postgresValue(value: StatementValue): string | number | boolean | null {
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
function numbered(sql: string): string {
  let index = 0;
  return sql.includes("?") ? sql.replace(/\?/g, () => `$${++index}`) : sql;
}

/**
 * One statement on the transaction's connection (DB-G7), without Prisma's
 * planning. Sent unnamed, as Prisma's own are: a named statement would stay
 * prepared on a server connection that a pooler in front of PostgreSQL
 * (PgBouncer in transaction mode) may hand to another client. The rows a
 * statement returns, and how many rows it changed.
 */
export async function runOnConnection(
  client: pg.PoolClient,
  sql: string,
  values: readonly StatementValue[],
): Promise<{ changes: number; rows: Record<string, unknown>[] }> {
  const result = await client.query({ text: numbered(sql), values: values.map(postgresValue), types });
  return { changes: result.rowCount ?? 0, rows: result.rows as Record<string, unknown>[] };
}
