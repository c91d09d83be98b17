import "server-only";
import { describeDatabase, findUnstorableText, type Database } from "@/lib/db";
import { ProxyRequestError } from "./errors";

/**
 * IN-4: a request whose text the database could not store (a lone UTF-16
 * surrogate anywhere; U+0000 on PostgreSQL) is refused with a 400 naming the
 * field, before anything is forwarded: the proxy never answers a call it
 * cannot record.
 */
export function requireStorableRequest(db: Database, body: unknown): void {
  const { provider } = describeDatabase(db);
  const problem = findUnstorableText(body, provider);
  if (!problem) return;
  const where = problem.path === "" ? "the request body" : problem.path;
  throw new ProxyRequestError(`${where} ${problem.message}; nothing was sent upstream`, problem.path === "" ? null : problem.path);
}
