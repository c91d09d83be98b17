import "server-only";
import { getDatabase, type Database } from "@/lib/db";

const globalForApi = globalThis as typeof globalThis & { __contextLabApiDatabase?: Database };

/**
 * The client every route handler uses: the process-wide `getDatabase()`,
 * unless a test pointed the API at its own database. One indirection, so a
 * test never opens a second client on the SQLite file it already holds.
 */
export function database(): Database {
  return globalForApi.__contextLabApiDatabase ?? getDatabase();
}

/** Points every route handler at `db` until `resetDatabaseForTests()`. Tests only. */
export function useDatabaseForTests(db: Database): void {
  globalForApi.__contextLabApiDatabase = db;
}

/** Back to `getDatabase()`. */
export function resetDatabaseForTests(): void {
  delete globalForApi.__contextLabApiDatabase;
}
