import type { Database } from "@/lib/db";

/**
 * A client on the same connection that counts its Prisma model operations and the rows they
 * return (a transaction's own statements are not counted). Tests assert on the counts; the
 * memory benchmark reports them.
 */
export function countingClient(db: Database): { db: Database; count: () => { operations: number; rows: number; largest: number } } {
  let operations = 0;
  let rows = 0;
  /** The most rows one operation returned. */
  let largest = 0;
  const extended = db.$extends({
    query: {
      $allModels: {
        async $allOperations({ args, query }) {
          operations += 1;
          const result: unknown = await query(args);
          const returned = Array.isArray(result) ? result.length : typeof result === "object" && result !== null ? 1 : 0;
          rows += returned;
          largest = Math.max(largest, returned);
          return result;
        },
      },
    },
  });
  return { db: extended as unknown as Database, count: () => ({ operations, rows, largest }) };
}
