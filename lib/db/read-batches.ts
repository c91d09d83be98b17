import "server-only";
import type pg from "pg";
import { postgresPoolOf, type Database } from "./client";
import { runOnConnection } from "./postgres-connection";
import { readRows } from "./run";

/**
 * DB-G11: the rows of `table` whose `column` equals `value`, in `order` (an
 * ORDER BY list, or none). The two reads every recorded call makes (its
 * conversation by record key, the conversation's branches, DB-G8) take this
 * path. On PostgreSQL the reads of one turn of the event loop for the same
 * table, column and order are one statement (`= ANY` of their values), each
 * read answered with its own rows in the statement's order: twenty agents'
 * calls placed at once read their conversations in a round trip or two
 * instead of twenty. Elsewhere, one read each (`readRows`): SQLite answers
 * in microseconds on this thread.
 */
export function readRowsWhere(db: Database, table: string, column: string, value: string, order = ""): Promise<Record<string, unknown>[]> {
  const pool = postgresPoolOf(db);
  if (!pool) return readRows(db, `SELECT * FROM "${table}" WHERE "${column}" = ?${order ? ` ORDER BY ${order}` : ""}`, [value]);
  return batchesOf(pool).read(table, column, order, value);
}

interface Waiting {
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: unknown) => void;
}

/** Reads of one table, column and order waiting for the end of the turn: each value's readers. */
interface Batch {
  table: string;
  column: string;
  order: string;
  waiting: Map<string, Waiting[]>;
}

/** A pool's reads of the current turn of the event loop, sent together at its end. */
class ReadBatches {
  private batches = new Map<string, Batch>();
  private scheduled = false;

  constructor(private readonly pool: pg.Pool) {}

  read(table: string, column: string, order: string, value: string): Promise<Record<string, unknown>[]> {
    return new Promise((resolve, reject) => {
      const key = `${table}\u0000${column}\u0000${order}`;
      let batch = this.batches.get(key);
      if (!batch) {
        batch = { table, column, order, waiting: new Map() };
        this.batches.set(key, batch);
      }
      const waiting = batch.waiting.get(value);
      if (waiting) waiting.push({ resolve, reject });
      else batch.waiting.set(value, [{ resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const batches = [...this.batches.values()];
        this.batches = new Map();
        for (const next of batches) void this.send(next);
      });
    });
  }

  private async send({ table, column, order, waiting }: Batch): Promise<void> {
    const values = [...waiting.keys()];
    const orderBy = order ? ` ORDER BY ${order}` : "";
    let rows: Record<string, unknown>[];
    try {
      rows = (await runOnConnection(this.pool, `SELECT * FROM "${table}" WHERE "${column}" = ANY(?::text[])${orderBy}`, [values])).rows;
    } catch (error) {
      for (const readers of waiting.values()) for (const reader of readers) reader.reject(error);
      return;
    }
    const byValue = new Map<string, Record<string, unknown>[]>(values.map((value) => [value, []]));
    for (const row of rows) byValue.get(row[column] as string)?.push(row);
    for (const [value, readers] of waiting) for (const reader of readers) reader.resolve(byValue.get(value)!);
  }
}

const batches = new WeakMap<pg.Pool, ReadBatches>();

function batchesOf(pool: pg.Pool): ReadBatches {
  let known = batches.get(pool);
  if (!known) {
    known = new ReadBatches(pool);
    batches.set(pool, known);
  }
  return known;
}
