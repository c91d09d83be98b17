import type { Database } from "@/lib/db";

/**
 * A client on the same connection that counts its Prisma model operations and the rows they
 * return (a transaction's own statements are not counted). Tests assert on the counts; the
 * memory benchmark reports them.
 */
export function countingClient(db: Database): { db: Database; count: () => { operations: number; reads: number; rows: number; largest: number } } {
  let operations = 0;
  /** Operations that only read (find, count, aggregate, groupBy). */
  let reads = 0;
  let rows = 0;
  /** The most rows one operation returned. */
  let largest = 0;
  const extended = db.$extends({
    query: {
      $allModels: {
        async $allOperations({ operation, args, query }) {
          operations += 1;
          if (/^(find|count|aggregate|groupBy)/.test(operation)) reads += 1;
          const result: unknown = await query(args);
          const returned = Array.isArray(result) ? result.length : typeof result === "object" && result !== null ? 1 : 0;
          rows += returned;
          largest = Math.max(largest, returned);
          return result;
        },
      },
    },
  });
  return { db: extended as unknown as Database, count: () => ({ operations, reads, rows, largest }) };
}

/** A client on the same connection that counts the model reads made through it. */
export function readingClient(db: Database): { db: Database; reads: () => number } {
  const counting = countingClient(db);
  return { db: counting.db, reads: () => counting.count().reads };
}
