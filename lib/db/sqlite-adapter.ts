import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";

type Adapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/** Waits this long for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 10_000;

/** A promise-chain mutex: `acquire` resolves to the function that releases it. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const acquired = this.#tail.then(() => once(release));
    this.#tail = this.#tail.then(() => released);
    return acquired;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      await yieldToEventLoop();
      return await work();
    } finally {
      release();
    }
  }
}

/** A chain of statements runs at most this long before other requests get their turn. */
const YIELD_EVERY_MS = 10;
let lastYield = 0;

/**
 * better-sqlite3 answers synchronously, so a chain of awaited statements
 * (an import's thousands of rows) never returns to the event loop: its
 * promises settle as microtasks, and every other request waits for the
 * whole chain. Once a chain has run 10 ms, the next statement first lets
 * pending I/O run; short chains pay nothing.
 */
async function yieldToEventLoop(): Promise<void> {
  if (performance.now() - lastYield < YIELD_EVERY_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  lastYield = performance.now();
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

function isStatement(query: Query, statement: string): boolean {
  return query.sql.trim().toUpperCase() === statement;
}

/**
 * Wraps a transaction so the connection is released when it ends, including
 * when COMMIT itself fails (the upstream adapter then never unlocks).
 */
function releasingTransaction(transaction: Transaction, release: () => void): Transaction {
  const finish = async (end: () => Promise<void>) => {
    try {
      await end();
    } finally {
      release();
    }
  };
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    queryRaw: async (query) => {
      await yieldToEventLoop();
      return transaction.queryRaw(query);
    },
    executeRaw: async (query) => {
      await yieldToEventLoop();
      if (!isStatement(query, "COMMIT")) return transaction.executeRaw(query);
      try {
        return await transaction.executeRaw(query);
      } catch (error) {
        await finish(async () => {
          await transaction.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
          await transaction.rollback();
        });
        throw error;
      }
    },
    commit: () => finish(() => transaction.commit()),
    rollback: () => finish(() => transaction.rollback()),
  };
}

/**
 * better-sqlite3 gives Prisma one connection. The upstream adapter serialises
 * interactive transactions with a mutex, but a query issued outside a
 * transaction runs on the same connection right away: inside whatever
 * transaction is open at that moment, and rolled back with it if that
 * transaction fails. Here every write and transaction takes one mutex.
 * A SELECT outside a transaction goes to `reader`, a second connection, when
 * there is one: under WAL it reads the last commit without waiting for the
 * open transaction (RL-ST6), so a long append or import never holds
 * `/api/health` or a page's read until it commits.
 */
function serialised(adapter: Adapter, reader: Adapter | null): Adapter {
  const mutex = new Mutex();
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => (reader && isRead(query) ? readAfterYield(reader, query) : mutex.run(() => adapter.queryRaw(query))),
    executeRaw: (query) => mutex.run(() => adapter.executeRaw(query)),
    executeScript: (script) => mutex.run(() => adapter.executeScript(script)),
    startTransaction: async (isolationLevel) => {
      const release = await mutex.acquire();
      try {
        return releasingTransaction(await adapter.startTransaction(isolationLevel), release);
      } catch (error) {
        release();
        throw error;
      }
    },
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: async () => {
      await reader?.dispose();
      await adapter.dispose();
    },
  };
}

/** A read on the reader, after the event loop's turn a chain of reads is due (`yieldToEventLoop`), as every write gets. */
async function readAfterYield(reader: Adapter, query: Query) {
  await yieldToEventLoop();
  return reader.queryRaw(query);
}

/** A statement that only reads: a plain SELECT (an INSERT ... RETURNING or a CTE that writes is not one). */
function isRead(query: Query): boolean {
  return /^\s*SELECT\b/i.test(query.sql);
}

/** The Prisma adapter factory for one SQLite file: writes serialised, reads on a second connection, WAL with synchronous=FULL, foreign keys on, busy timeout set. */
export function createSqliteAdapter(file: string): SqlDriverAdapterFactory {
  const upstream = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS });
  return {
    provider: upstream.provider,
    adapterName: upstream.adapterName,
    connect: async () => {
      const writer = await upstream.connect();
      // WAL lets another process (the Prisma CLI, a script) and the reader read while the app writes. synchronous=FULL
      // syncs the WAL on every commit, so a write acknowledged before a power loss is still there after it.
      await writer.executeScript("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");
      // An in-memory database is one per connection: a reader there would read another, empty one.
      const reader = file === ":memory:" ? null : await upstream.connect();
      await reader?.executeScript("PRAGMA query_only = ON;");
      return serialised(writer, reader);
    },
  };
}
