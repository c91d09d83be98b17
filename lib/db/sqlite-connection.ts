import "server-only";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";

type Adapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
type Query = Parameters<Adapter["queryRaw"]>[0];

/**
 * A mutex whose urgent waiters go first: `acquire` resolves to the function
 * that releases it. The journal's writes and the group's commit are urgent
 * (DB-G5): an agent's answer waits for them, and must not wait behind every
 * placement queued before it.
 */
class Mutex {
  #locked = false;
  readonly #urgent: (() => void)[] = [];
  readonly #waiting: (() => void)[] = [];

  acquire(urgent = false): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.#locked = true;
        resolve(once(() => this.#release()));
      };
      if (!this.#locked) grant();
      else (urgent ? this.#urgent : this.#waiting).push(grant);
    });
  }

  #release(): void {
    const next = this.#urgent.shift() ?? this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }

  async run<T>(work: () => Promise<T>, urgent = false): Promise<T> {
    const release = await this.acquire(urgent);
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

/**
 * The savepoint each Prisma transaction is inside its group. One name does:
 * a transaction holds the connection's mutex from its start to its end, so
 * two are never open at once, and the statements naming it stay prepared.
 */
const SAVEPOINT = "tx";

function isStatement(query: Query, sql: string): boolean {
  return query.sql.trim().toUpperCase() === sql;
}

/** A statement that only reads: Prisma's writes come as INSERT/UPDATE/DELETE, some with RETURNING through queryRaw. */
function isRead(query: Query): boolean {
  return /^\s*SELECT\b/i.test(query.sql);
}

/**
 * DB-G1: the writes that share one commit. Each waits for `durable`, which
 * settles when the group's COMMIT returned (the log synced) or failed.
 */
class Group {
  readonly durable: Promise<void>;
  /** Why the group was rolled back, once it was. */
  failure: unknown = null;
  /** A direct statement (an agent's answer waits for it) is in the group: its commit goes ahead of queued work (DB-G5). */
  urgent = false;
  /** Writes and transactions that joined it. */
  members = 0;
  private settle!: (failure?: unknown) => void;

  constructor() {
    this.durable = new Promise<void>((resolve, reject) => {
      this.settle = (failure) => (failure === undefined ? resolve() : reject(failure));
    });
    // Every member awaits it; a failure nobody awaits any more must not crash the process.
    this.durable.catch(() => undefined);
  }

  committed(): void {
    this.settle();
  }

  failed(failure: unknown): void {
    this.failure ??= failure;
    this.settle(failure);
  }
}

/** A statement run on the driver directly (DB-G4): SQL with `?` marks and its values (strings, numbers, null). */
export interface DirectStatement {
  sql: string;
  params: readonly SqliteValue[];
}

/** A value as the driver binds it. */
export type SqliteValue = string | number | null;

/** A value of a statement sent without Prisma: text, a number, a flag, an instant, or nothing. */
export type StatementValue = string | number | boolean | Date | null;

/** A value bound as Prisma's adapter binds it: instants as ISO text with `+00:00`, flags as 1 and 0. */
export function sqliteParam(value: StatementValue): SqliteValue {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/** The driver handle under the upstream adapter, as far as this connection uses it. */
export interface SqliteHandle {
  readonly inTransaction: boolean;
  prepare(sql: string): {
    run(...params: readonly SqliteValue[]): { changes: number };
    all(...params: readonly SqliteValue[]): unknown[];
    readonly reader: boolean;
    /** Whether integers come back as BigInt (Prisma's adapter turns that on for the connection). */
    safeIntegers(toggle: boolean): unknown;
  };
}

/**
 * While writes come together (the last COMMIT made more than one durable),
 * commits follow each other at least this far apart, and at least
 * `SYNC_SHARE` times as far as the last one took (a sync of the log holds
 * the thread): writes that come in between join the open group, so under
 * load syncing takes at most about half of the thread's time.
 */
const COMMIT_SPACING_MS = 2;
const SYNC_SHARE = 1;

/** Prepared statements kept per connection; more distinct SQL texts than this and the oldest is dropped. */
const PREPARED_STATEMENTS = 64;

/** A handle's statements, prepared once per SQL text and reused; the least recently prepared goes first past `PREPARED_STATEMENTS`. */
class PreparedStatements {
  private readonly statements = new Map<string, ReturnType<SqliteHandle["prepare"]>>();

  constructor(private readonly handle: SqliteHandle) {}

  get(sql: string): ReturnType<SqliteHandle["prepare"]> {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.handle.prepare(sql);
      // Counters and positions are far below 2^53: numbers, as Prisma returns them.
      if (prepared.reader) prepared.safeIntegers(false);
      if (this.statements.size >= PREPARED_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
}

/** What the connection did, for tests that count work (DB-G3). */
export interface ConnectionCounts {
  /** Writes and transactions that finished in a committed group. */
  writes: number;
  /** COMMITs made: one per group. */
  commits: number;
}

/**
 * better-sqlite3 gives Prisma one connection, and this wraps it:
 *
 * - **Serialised.** Every statement and transaction takes one mutex (a query
 *   issued outside a transaction would otherwise run inside whatever
 *   transaction is open at that moment).
 * - **DB-G1 Group commit.** Writes do not commit one by one: the first write
 *   opens a transaction (`BEGIN IMMEDIATE`), every write and transaction that
 *   comes while it is open joins it (a transaction as a savepoint), and it
 *   commits once the writes queued before the commit are done. With
 *   synchronous=FULL each commit waits for the disk; twenty agents' calls
 *   then cost one sync, not twenty, and the thread is not held by each.
 * - **DB-G2 Acknowledged means durable.** A write's promise, and a
 *   transaction's commit, settle only after the group's COMMIT returned; if
 *   it fails every member fails with it, so nothing reported written is lost
 *   in a crash. A transaction that rolls back undoes only its savepoint; a
 *   statement that fails undoes only itself, unless SQLite rolled the whole
 *   group back (disk full, I/O error), and then every member fails.
 * - **RL-ST6** A plain SELECT outside a transaction runs on a second,
 *   read-only connection when there is one: under WAL it reads the last
 *   commit without waiting for the writer, so `/api/health` and page reads
 *   answer while a long append or import writes. Without one (an in-memory
 *   database) reads take the mutex and see the open group's writes.
 */
export class SqliteConnection implements Adapter {
  readonly provider: Adapter["provider"];
  readonly adapterName: string;
  readonly counts: ConnectionCounts = { writes: 0, commits: 0 };
  private readonly mutex = new Mutex();
  private group: Group | null = null;
  /** When the last COMMIT returned, and how long it took. */
  private lastCommit = Number.NEGATIVE_INFINITY;
  private lastCommitMs = 0;
  /** How many writes the last COMMIT made durable: more than one means writes are coming together. */
  private lastGroupMembers = 0;
  private readonly prepared: PreparedStatements;
  /** The read-only connection's statements (DB-G8), when there is one. */
  private readonly readerPrepared: PreparedStatements | null;
  /** Prisma transactions open on this connection (a savepoint each); `runHeld` runs only inside one. */
  private openTransactions = 0;

  constructor(
    private readonly adapter: Adapter,
    private readonly connection: SqliteHandle,
    private readonly reader: { adapter: Adapter; handle: SqliteHandle } | null = null,
  ) {
    this.provider = adapter.provider;
    this.adapterName = adapter.adapterName;
    this.prepared = new PreparedStatements(connection);
    this.readerPrepared = reader && new PreparedStatements(reader.handle);
  }

  queryRaw(query: Query) {
    if (!isRead(query)) return this.write(() => this.adapter.queryRaw(query));
    if (this.reader) return this.read(this.reader.adapter, query);
    return this.mutex.run(() => this.adapter.queryRaw(query));
  }

  /** RL-ST6: a read on the second connection, after the event loop's turn a chain of reads is due (`yieldToEventLoop`), as every write gets. */
  private async read(reader: Adapter, query: Query) {
    await yieldToEventLoop();
    return reader.queryRaw(query);
  }

  executeRaw(query: Query) {
    return this.write(() => this.adapter.executeRaw(query));
  }

  /** Scripts (PRAGMAs, migrations) run outside any group: the open one commits first. */
  executeScript(script: string) {
    return this.mutex.run(async () => {
      await this.commit();
      return this.adapter.executeScript(script);
    });
  }

  async startTransaction(isolationLevel?: Parameters<Adapter["startTransaction"]>[0]): Promise<Transaction> {
    if (isolationLevel && isolationLevel !== "SERIALIZABLE") return this.adapter.startTransaction(isolationLevel);
    const release = await this.mutex.acquire();
    try {
      await yieldToEventLoop();
      const group = await this.join();
      this.control(`SAVEPOINT ${SAVEPOINT}`);
      this.openTransactions += 1;
      return this.transaction(group, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  getConnectionInfo() {
    return this.adapter.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  /** Commits what is open, then closes the connections. */
  dispose() {
    return this.mutex.run(async () => {
      await this.commit();
      await this.reader?.adapter.dispose();
      await this.adapter.dispose();
    });
  }

  /**
   * DB-G4: statements that skip Prisma (the recording proxy's journal, on
   * every call's path): prepared once and reused, run in order in the open
   * group, each succeeding or failing on its own (DB-G2). Resolves, once the
   * group is durable, to each statement's changed rows or its error.
   */
  async runDirect(statements: readonly DirectStatement[]): Promise<(number | Error)[]> {
    const { results, group } = await this.mutex.run(async () => {
      const group = await this.join();
      group.urgent = true;
      const results: (number | Error)[] = [];
      for (const { sql, params } of statements) {
        try {
          results.push(this.prepared.get(sql).run(...params).changes);
        } catch (error) {
          this.checkGroup(group, error);
          results.push(error instanceof Error ? error : new Error(String(error)));
        }
      }
      return { results, group };
    }, true);
    await group.durable;
    this.counts.writes += statements.length;
    return results;
  }

  /**
   * DB-G6: one statement on the driver directly, inside the Prisma
   * transaction open on this connection: its caller runs in that transaction
   * (which holds the mutex), so the statement lands in its savepoint and
   * commits or rolls back with it. Prepared once and reused, without Prisma's
   * planning. Returns the rows of a statement that returns rows, else the
   * number of rows changed.
   */
  runHeld(sql: string, params: readonly SqliteValue[]): { changes: number; rows: unknown[] } {
    if (this.openTransactions === 0 || !this.connection.inTransaction) throw new Error("a held statement runs only inside an open transaction");
    try {
      const prepared = this.prepared.get(sql);
      if (prepared.reader) {
        const rows = prepared.all(...params);
        return { changes: rows.length, rows };
      }
      return { changes: prepared.run(...params).changes, rows: [] };
    } catch (error) {
      if (this.group) this.checkGroup(this.group, error);
      throw error;
    }
  }

  /**
   * DB-G8: a plain SELECT on the driver directly, outside any transaction,
   * prepared once and reused: on the read-only connection when there is one
   * (the last commit, without waiting for the writer, as RL-ST6), else in
   * turn on the only one (seeing the open group's writes).
   */
  async readDirect(sql: string, params: readonly SqliteValue[]): Promise<Record<string, unknown>[]> {
    const readerPrepared = this.readerPrepared;
    if (!readerPrepared) return this.mutex.run(async () => this.prepared.get(sql).all(...params) as Record<string, unknown>[]);
    await yieldToEventLoop();
    return readerPrepared.get(sql).all(...params) as Record<string, unknown>[];
  }

  /** One write outside a transaction: run in the open group, resolved once the group is durable (DB-G2). */
  private async write<T>(run: () => Promise<T>): Promise<T> {
    const { result, group } = await this.mutex.run(async () => {
      const group = await this.join();
      try {
        return { result: await run(), group };
      } catch (error) {
        this.checkGroup(group, error);
        throw error;
      }
    });
    await group.durable;
    this.counts.writes += 1;
    return result;
  }

  /**
   * The open group, or a new one (DB-G1). Its commit is queued behind what is
   * queued by then: at once when the last commit was a while ago or made a
   * lone write durable (one agent's calls wait for no spacing), else once the
   * spacing since it has passed, so that under load the writes of that time
   * share one sync. Holds the mutex.
   */
  private async join(): Promise<Group> {
    if (this.group) {
      this.group.members += 1;
      return this.group;
    }
    this.control("BEGIN IMMEDIATE");
    const group = new Group();
    group.members = 1;
    this.group = group;
    // Spaced only while writes come together: after a lone write's commit the next one waits for nothing.
    const wait = this.lastGroupMembers > 1 ? this.lastCommit + Math.max(COMMIT_SPACING_MS, SYNC_SHARE * this.lastCommitMs) - performance.now() : 0;
    // Ahead of queued work only when an answer waits for it (DB-G5); otherwise what is queued joins the group first.
    const commit = () => void this.mutex.run(() => this.commit(group), group.urgent);
    if (wait > 0) setTimeout(commit, wait);
    else setImmediate(commit);
    return group;
  }

  /**
   * A statement that frames transactions (BEGIN, COMMIT, a savepoint): on the
   * driver, prepared once and reused. Through Prisma's adapter each would be
   * prepared anew, several times per recorded call.
   */
  private control(sql: string): void {
    this.prepared.get(sql).run();
  }

  /** Commits the open group (only `expected`, when given); its members learn the outcome. Holds the mutex. */
  private async commit(expected?: Group): Promise<void> {
    const group = this.group;
    if (!group || (expected && group !== expected)) return;
    this.group = null;
    try {
      const started = performance.now();
      this.control("COMMIT");
      this.lastCommit = performance.now();
      this.lastCommitMs = this.lastCommit - started;
      this.lastGroupMembers = group.members;
      this.counts.commits += 1;
      group.committed();
    } catch (error) {
      if (this.connection.inTransaction) {
        try {
          this.control("ROLLBACK");
        } catch {
          // The group fails with the COMMIT's error either way.
        }
      }
      group.failed(error);
    }
  }

  /** After a failed statement: when SQLite rolled the whole group back, every member fails (DB-G2). */
  private checkGroup(group: Group, error: unknown): void {
    if (this.group !== group || this.connection.inTransaction) return;
    this.group = null;
    group.failed(error);
  }

  /** Prisma's transaction as a savepoint of the group: COMMIT releases it and waits for the group, ROLLBACK undoes it. */
  private transaction(group: Group, release: () => void): Transaction {
    let open = true;
    const end = async (...statements: string[]) => {
      if (!open) return;
      open = false;
      this.openTransactions -= 1;
      try {
        for (const sql of statements) if (group.failure === null) this.control(sql);
      } finally {
        release();
      }
    };
    const guarded = async <T>(run: () => Promise<T>): Promise<T> => {
      if (group.failure !== null) throw group.failure;
      await yieldToEventLoop();
      try {
        return await run();
      } catch (error) {
        this.checkGroup(group, error);
        throw error;
      }
    };
    return {
      provider: this.provider,
      adapterName: this.adapterName,
      options: { usePhantomQuery: false },
      queryRaw: (query) => guarded(() => this.adapter.queryRaw(query)),
      executeRaw: async (query) => {
        if (isStatement(query, "COMMIT")) {
          if (group.failure !== null) {
            await end();
            throw group.failure;
          }
          await end(`RELEASE ${SAVEPOINT}`);
          await group.durable;
          this.counts.writes += 1;
          return 0;
        }
        if (isStatement(query, "ROLLBACK")) {
          await end(`ROLLBACK TO ${SAVEPOINT}`, `RELEASE ${SAVEPOINT}`);
          return 0;
        }
        return guarded(() => this.adapter.executeRaw(query));
      },
      commit: () => end(),
      rollback: () => end(),
    };
  }
}
