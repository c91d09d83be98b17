import "server-only";
import { findUnstorableText } from "@/lib/db";
import { ProxyRequestError } from "./errors";

/**
 * IN-4: a request whose text a database could not store (a lone UTF-16
 * surrogate anywhere; U+0000, which PostgreSQL refuses) is refused with a 400
 * naming the field, before anything is forwarded: the proxy never answers a
 * call it cannot record. PostgreSQL's rule holds on SQLite too, as the routes'
 * does (BD-3), so a recorded session moves between the databases.
 */
export function requireStorableRequest(body: unknown): void {
  const problem = findUnstorableText(body, "postgres");
  if (!problem) return;
  const where = problem.path === "" ? "the request body" : problem.path;
  throw new ProxyRequestError(`${where} ${problem.message}; nothing was sent upstream`, problem.path === "" ? null : problem.path);
}
