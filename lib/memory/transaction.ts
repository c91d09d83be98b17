import "server-only";
import { describeDatabase, type Database } from "@/lib/db";
import { mapDatabaseError } from "@/lib/db/errors";
import { noteTransaction, openTransaction } from "@/lib/db/run";

/**
 * Runs `work` in one interactive transaction and hands it a client on which
 * the storage layer's public functions join that transaction instead of
 * opening their own: everything `work` writes through it commits together or
 * not at all. lib/db gives each write its own transaction, so this is how a
 * turn, its artifacts and a compaction become one unit. Inside `work`, use
 * only the joined client: on SQLite a query on `db` would wait for the
 * transaction that holds the connection.
 */
export async function inTransaction<T>(db: Database, work: (joined: Database) => Promise<T>): Promise<T> {
  try {
    return await openTransaction(db, (tx) => {
      const joined: Database = new Proxy(tx as Database, {
        get(target, property) {
          // A nested `$transaction(work)` (lib/db's runTransaction) runs on the open one.
          if (property === "$transaction") return (nested: (client: Database) => Promise<unknown>) => nested(joined);
          return Reflect.get(target, property);
        },
      });
      // DB-G6, DB-G7: lib/db's plain statements inside run on the connection the transaction holds.
      noteTransaction(tx, joined);
      return work(joined);
    });
  } catch (error) {
    // Opening or committing fails outside lib/db's own error mapping (an unreachable database, a busy SQLite file).
    throw mapDatabaseError(error, describeDatabase(db));
  }
}
