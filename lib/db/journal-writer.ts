import "server-only";
import type pg from "pg";
import { postgresPoolOf, sqliteConnectionOf } from "./client";
import { postgresValue } from "./postgres-connection";
import { sqliteParam, type DirectStatement, type StatementValue } from "./sqlite-connection";

/**
 * DB-J1: the recording proxy's journal is written on the database driver
 * directly, not through Prisma: every proxied call writes a row before its
 * first byte and completes it before its last, so its cost is on every
 * answer. Calls that arrive within one turn of the event loop are written
 * together: on SQLite as prepared statements in one group commit (DB-G1), on
 * PostgreSQL as one multi-row statement per kind (one round trip and one
 * commit for the batch). A write resolves once it is durable (DB-G2).
 * A batch statement that fails is run again row by row, so one bad row fails
 * alone.
 */

/** A journal row as inserted: column name → value. */
export type JournalRow = Readonly<Record<string, StatementValue>>;

type Write =
  | { kind: "insert"; table: string; row: JournalRow }
  | { kind: "update"; table: string; id: string; values: JournalRow }
  | { kind: "delete"; table: string; id: string };

interface Pending {
  write: Write;
  resolve: (changed: number) => void;
  reject: (error: unknown) => void;
}

/** Rows per multi-row statement on PostgreSQL (far under its 65,535 parameters). */
const ROWS_PER_STATEMENT = 200;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** How a batch reaches a database: each write's changed rows, or its error. */
interface Target {
  run(writes: readonly Write[]): Promise<(number | Error)[]>;
}

function sqliteStatement(write: Write): DirectStatement {
  if (write.kind === "insert") {
    const columns = Object.keys(write.row);
    return {
      sql: `INSERT INTO ${quoted(write.table)} (${columns.map(quoted).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      params: Object.values(write.row).map(sqliteParam),
    };
  }
  if (write.kind === "update") {
    const columns = Object.keys(write.values);
    return {
      sql: `UPDATE ${quoted(write.table)} SET ${columns.map((column) => `${quoted(column)} = ?`).join(", ")} WHERE "id" = ?`,
      params: [...Object.values(write.values).map(sqliteParam), write.id],
    };
  }
  return { sql: `DELETE FROM ${quoted(write.table)} WHERE "id" = ?`, params: [write.id] };
}

function sqliteTarget(connection: NonNullable<ReturnType<typeof sqliteConnectionOf>>): Target {
  return { run: (writes) => connection.runDirect(writes.map(sqliteStatement)) };
}

/**
 * The PostgreSQL type of the journal's and exchanges' non-text columns: the
 * values of a multi-row UPDATE come in a VALUES list, which must be typed
 * (an INSERT takes its types from the columns it names).
 */
const POSTGRES_TYPES: Readonly<Record<string, string>> = {
  status: "integer",
  durationMs: "integer",
  streamed: "boolean",
  createdAt: "timestamp(3)",
  endedAt: "timestamp(3)",
};

/** Writes of one kind and shape (same table, same columns), as one statement. */
function postgresStatement(writes: readonly Write[]): { text: string; values: unknown[] } {
  const first = writes[0]!;
  const values: unknown[] = [];
  const mark = (value: StatementValue, cast?: string) => {
    values.push(postgresValue(value));
    return cast ? `$${values.length}::${cast}` : `$${values.length}`;
  };
  if (first.kind === "delete") {
    return {
      text: `DELETE FROM ${quoted(first.table)} WHERE "id" = ANY($1::text[]) RETURNING "id"`,
      values: [writes.map((write) => (write as { id: string }).id)],
    };
  }
  if (first.kind === "insert") {
    const columns = Object.keys(first.row);
    const rows = writes.map((write) => `(${columns.map((column) => mark((write as { row: JournalRow }).row[column] ?? null)).join(", ")})`);
    return { text: `INSERT INTO ${quoted(first.table)} (${columns.map(quoted).join(", ")}) VALUES ${rows.join(", ")}`, values };
  }
  const columns = Object.keys(first.values);
  const rows = writes.map((write) => {
    const { id, values: row } = write as { id: string; values: JournalRow };
    return `(${[mark(id, "text"), ...columns.map((column) => mark(row[column] ?? null, POSTGRES_TYPES[column] ?? "text"))].join(", ")})`;
  });
  const assignments = columns.map((column) => `${quoted(column)} = v.${quoted(column)}`).join(", ");
  return {
    text: `UPDATE ${quoted(first.table)} AS t SET ${assignments} FROM (VALUES ${rows.join(", ")}) AS v("id", ${columns.map(quoted).join(", ")}) WHERE t."id" = v."id" RETURNING t."id"`,
    values,
  };
}

/** Writes grouped by kind, table and columns, in the order inserts, updates, deletes (an update never precedes its row's insert). */
function shapesOf(writes: readonly Write[]): number[][] {
  const order = { insert: 0, update: 1, delete: 2 };
  const groups = new Map<string, number[]>();
  for (const [index, write] of writes.entries()) {
    const columns = write.kind === "insert" ? Object.keys(write.row) : write.kind === "update" ? Object.keys(write.values) : [];
    const key = `${order[write.kind]}\u0000${write.table}\u0000${columns.join(",")}`;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, indexes]) => indexes);
}

function postgresTarget(pool: pg.Pool): Target {
  /** Each write's changed rows: an insert's row, or whether the row its id names was there. */
  const run = async (writes: readonly Write[]): Promise<number[]> => {
    const { text, values } = postgresStatement(writes);
    const result = await pool.query(text, values);
    if (writes[0]!.kind === "insert") return writes.map(() => 1);
    const changed = new Set(result.rows.map((row: { id: string }) => row.id));
    return writes.map((write) => (changed.has((write as { id: string }).id) ? 1 : 0));
  };
  const asError = (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure)));
  return {
    async run(writes) {
      const results: (number | Error)[] = new Array(writes.length);
      for (const shape of shapesOf(writes)) {
        for (let start = 0; start < shape.length; start += ROWS_PER_STATEMENT) {
          const indexes = shape.slice(start, start + ROWS_PER_STATEMENT);
          try {
            const changed = await run(indexes.map((index) => writes[index]!));
            for (const [position, index] of indexes.entries()) results[index] = changed[position]!;
          } catch (error) {
            if (indexes.length === 1) {
              results[indexes[0]!] = asError(error);
              continue;
            }
            // One bad row fails the statement: each row on its own, so only that one fails.
            for (const index of indexes) {
              results[index] = await run([writes[index]!]).then(([changed]) => changed!, asError);
            }
          }
        }
      }
      return results;
    },
  };
}

/** DB-J1: queues a client's journal writes and sends each turn's writes as one batch, batches one after another. */
export class JournalWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  private running: Promise<void> = Promise.resolve();
  /** Batches sent, for tests that count work. */
  batches = 0;

  constructor(private readonly target: Target) {}

  insert(table: string, row: JournalRow): Promise<number> {
    return this.enqueue({ kind: "insert", table, row });
  }

  update(table: string, id: string, values: JournalRow): Promise<number> {
    return this.enqueue({ kind: "update", table, id, values });
  }

  delete(table: string, id: string): Promise<number> {
    return this.enqueue({ kind: "delete", table, id });
  }

  private enqueue(write: Write): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const batch = this.queue;
        this.queue = [];
        this.running = this.running.then(() => this.send(batch));
      });
    });
  }

  private async send(batch: Pending[]): Promise<void> {
    this.batches += 1;
    let results: (number | Error)[];
    try {
      results = await this.target.run(batch.map((pending) => pending.write));
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    for (const [index, pending] of batch.entries()) {
      const result = results[index]!;
      if (result instanceof Error) pending.reject(result);
      else pending.resolve(result);
    }
  }
}

const writers = new WeakMap<object, JournalWriter>();

/**
 * The client's journal writer (made on first use), or null for a client this
 * module cannot reach the driver of (one not made by createDatabase, or a
 * SQLite client that has not connected yet: its first query connects it).
 */
export function journalWriterOf(db: object): JournalWriter | null {
  const known = writers.get(db);
  if (known) return known;
  const pool = postgresPoolOf(db);
  const connection = pool ? null : sqliteConnectionOf(db);
  const target = pool ? postgresTarget(pool) : connection ? sqliteTarget(connection) : null;
  if (!target) return null;
  const writer = new JournalWriter(target);
  writers.set(db, writer);
  return writer;
}
