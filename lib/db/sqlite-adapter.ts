import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import { SqliteConnection, type SqliteHandle } from "./sqlite-connection";

/** Waits this long for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;

/** The upstream adapter keeps its better-sqlite3 handle here: the connection asks it whether a transaction is still open, and prepares its direct statements on it (DB-G4). */
interface WithClient {
  client: SqliteHandle;
}

function handleOf(adapter: object): SqliteHandle {
  return (adapter as WithClient).client;
}

/** A factory that remembers the connection it made (Prisma connects lazily, on the first query). */
export interface SqliteAdapterFactory extends SqlDriverAdapterFactory {
  connection: SqliteConnection | null;
}

/** The Prisma adapter factory for one SQLite file: writes serialised and group-committed (DB-G1), reads on a second connection (RL-ST6), WAL with synchronous=FULL, foreign keys on, busy timeout set. */
export function createSqliteAdapter(file: string): SqliteAdapterFactory {
  const upstream = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS });
  const factory: SqliteAdapterFactory = {
    connection: null,
    provider: upstream.provider,
    adapterName: upstream.adapterName,
    connect: async () => {
      const adapter = await upstream.connect();
      // WAL lets another process (the Prisma CLI, a script) and the reader read while the app writes. synchronous=FULL
      // syncs the WAL on every commit, so a write acknowledged before a power loss is still there after it.
      await adapter.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
      // An in-memory database is one per connection: a reader there would read another, empty one (RL-ST6).
      const reader = file === ":memory:" ? null : await upstream.connect();
      await reader?.executeScript("PRAGMA query_only = ON;");
      const connection = new SqliteConnection(adapter, handleOf(adapter), reader && { adapter: reader, handle: handleOf(reader) });
      factory.connection = connection;
      return connection;
    },
  };
  return factory;
}
