import "server-only";
import fs from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { PrismaClient } from "./generated/sqlite/client";
import { PrismaClient as PostgresPrismaClient } from "./generated/postgres/client";
import type { Prisma } from "./generated/sqlite/client";
import type { DatabaseDescription } from "./errors";
import { createSqliteAdapter, type SqliteAdapterFactory } from "./sqlite-adapter";
import type { SqliteConnection } from "./sqlite-connection";
import { TrackingPool } from "./postgres-connection";

/** A Prisma client for either provider; both generated clients share this model API. */
export type Database = PrismaClient;
/** The client handed to an interactive transaction's callback. */
export type Transaction = Prisma.TransactionClient;

export const DEFAULT_DATABASE_URL = "file:./data/context-lab.db";

/** Waits this long for a free PostgreSQL connection before giving up on a host that does not answer. */
const CONNECT_TIMEOUT_MS = 5_000;

/** What createDatabase knows of a client it made: the database, for error messages, and the driver under it (DB-J1). */
interface MadeClient {
  description: DatabaseDescription;
  sqlite?: SqliteAdapterFactory;
  pool?: pg.Pool;
}
// On globalThis: route bundles (and the app server's) may each load their own copy of this module, and a
// client made by one must still be known to another (else a PostgreSQL outage reads as SQLite's).
const globalForClients = globalThis as typeof globalThis & { __contextLabClients?: WeakMap<object, MadeClient> };
const clients = (globalForClients.__contextLabClients ??= new WeakMap<object, MadeClient>());

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** `file:./data/x.db` → an absolute path, relative to the working directory (the repository root). */
export function sqlitePathOf(url: string): string {
  const location = url.replace(/^file:(\/\/(?=\/))?/, "").replace(/\?.*$/, "");
  return location === ":memory:" ? location : path.resolve(/*turbopackIgnore: true*/ process.cwd(), location);
}

function createSqliteDatabase(url: string): Database {
  const file = sqlitePathOf(url);
  if (file !== ":memory:") {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
    } catch {
      // Opening the file fails next and is reported as DatabaseUnavailableError with the path.
    }
  }
  const adapter = createSqliteAdapter(file);
  const db = new PrismaClient({ adapter });
  clients.set(db, { description: { provider: "sqlite", location: `sqlite:${file}` }, sqlite: adapter });
  return db;
}

function createPostgresDatabase(url: string): Database {
  const connection = new URL(url);
  // `?schema=` is Prisma's convention, not pg's: the adapter qualifies its queries
  // with it, and search_path covers raw SQL.
  const schema = connection.searchParams.get("schema") ?? undefined;
  connection.searchParams.delete("schema");
  const options = schema ? `-c search_path="${schema.replaceAll('"', '""')}"` : undefined;
  // The pool is ours, handed to Prisma, so the journal writer can send its statements on it too (DB-G4).
  // It finds the connection a transaction holds (DB-G7).
  const pool = new TrackingPool({ connectionString: connection.toString(), options, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection that dies while idle is reported by the next query that needs one, not as an unhandled error.
  pool.on("error", () => undefined);
  const adapter = new PrismaPg(pool, { schema, disposeExternalPool: true });
  // The two generated clients differ only in provider-specific filter options
  // (PostgreSQL adds `mode: "insensitive"`), which this layer never uses; the
  // SQLite client's type stands for both.
  const db = new PostgresPrismaClient({ adapter }) as unknown as Database;
  const port = connection.port || "5432";
  const location = `postgres://${connection.hostname}:${port}${connection.pathname}${schema ? `?schema=${schema}` : ""}`;
  clients.set(db, { description: { provider: "postgres", location }, pool });
  return db;
}

/**
 * A new client for `url` (default `DATABASE_URL`, else the embedded SQLite
 * file): `file:` URLs open SQLite (the folder is created), `postgres://` URLs
 * open PostgreSQL (honouring `?schema=`). Connecting is lazy: a database that
 * cannot be reached fails the first query with `DatabaseUnavailableError`.
 */
export function createDatabase(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): Database {
  return isPostgresUrl(url) ? createPostgresDatabase(url) : createSqliteDatabase(url);
}

/** Which database a client talks to, for error messages; credentials never included. */
export function describeDatabase(db: object): DatabaseDescription {
  return clients.get(db)?.description ?? { provider: "sqlite", location: "(a client not made by createDatabase)" };
}

/** The SQLite connection under a client made by createDatabase, once it has connected (null for PostgreSQL, or before the first query). */
export function sqliteConnectionOf(db: object): SqliteConnection | null {
  return clients.get(db)?.sqlite?.connection ?? null;
}

/** The PostgreSQL pool under a client made by createDatabase (null for SQLite). */
export function postgresPoolOf(db: object): pg.Pool | null {
  return clients.get(db)?.pool ?? null;
}

const globalForDatabase = globalThis as typeof globalThis & { __contextLabDatabase?: Database };

/**
 * The process-wide client. It lives on `globalThis` because Next's dev server
 * re-evaluates modules on every change and would otherwise open a new pool
 * (or SQLite connection) each time.
 */
export function getDatabase(): Database {
  globalForDatabase.__contextLabDatabase ??= createDatabase();
  return globalForDatabase.__contextLabDatabase;
}
