import "server-only";
import { BoundedMap } from "@/lib/context/bounded-map";
import type { Database } from "./client";
import { getExchangeById } from "./exchanges";
import { fromJsonText, toJsonText, type JsonValue } from "./json";
import { decodeRequest, encodeRequest, type RequestDelta } from "./request-delta";
import { runQuery } from "./run";

/** Exchange rows read per query while compacting a branch. */
const PAGE = 100;
/** Decoded requests kept while walking a branch: a delta's base is almost always the row just before it. */
const RECENT = 16;

/** What a compaction did. */
export interface CompactionReport {
  /** Rows rewritten from whole requests to deltas. */
  rewritten: number;
  /** Characters of request text they no longer store. */
  savedCharacters: number;
}

/**
 * D6.6 Rows stored whole before requests were stored as deltas (and rows
 * stored whole since, as the first call after a restart) become deltas
 * against the exchange before them on their branch, oldest first. Each row is
 * one conditional update, so a crash leaves every row readable (whole, or a
 * delta of a row that is), and a second run, or another instance running at
 * once, rewrites nothing twice. A row that would not get smaller stays whole
 * (and its branch is walked again by the next run).
 */
export async function compactStoredRequests(db: Database): Promise<CompactionReport> {
  const report: CompactionReport = { rewritten: 0, savedCharacters: 0 };
  // A branch's first request is always whole; only a branch with more whole rows has any to rewrite, so a run after
  // a compaction reads no exchange at all.
  const branches = await runQuery(db, () =>
    db.exchange.groupBy({ by: ["branchId"], where: { requestBaseId: null }, having: { id: { _count: { gt: 1 } } }, orderBy: { branchId: "asc" } }),
  );
  for (const { branchId } of branches) await compactBranch(db, branchId, report);
  return report;
}

async function compactBranch(db: Database, branchId: string, report: CompactionReport): Promise<void> {
  const recent = new BoundedMap<string, JsonValue>(RECENT);
  let previous: { id: string; request: JsonValue } | null = null;
  let cursor: string | undefined;
  for (;;) {
    const rows = await runQuery(db, () =>
      db.exchange.findMany({
        where: { branchId },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, request: true, requestBaseId: true },
        take: PAGE,
        ...(cursor === undefined ? {} : { cursor: { id: cursor }, skip: 1 }),
      }),
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      const request = row.requestBaseId === null ? fromJsonText(row.request) : await decoded(db, row.id, row.requestBaseId, row.request, recent);
      if (row.requestBaseId === null && previous !== null) {
        const delta = encodeRequest(previous.request, request);
        const text = delta === null ? null : toJsonText(delta, "request");
        if (text !== null && text.length < row.request.length) {
          const base = previous.id;
          const { count } = await runQuery(db, () =>
            db.exchange.updateMany({ where: { id: row.id, requestBaseId: null }, data: { request: text, requestBaseId: base } }),
          );
          if (count === 1) {
            report.rewritten += 1;
            report.savedCharacters += row.request.length - text.length;
          }
        }
      }
      recent.set(row.id, request);
      previous = { id: row.id, request };
    }
    cursor = rows.at(-1)!.id;
  }
}

/** A delta row's request: from its base's, when that was just read, else read back along its chain. */
async function decoded(db: Database, id: string, baseId: string, stored: string, recent: Map<string, JsonValue>): Promise<JsonValue> {
  const base = recent.get(baseId);
  if (base !== undefined) return decodeRequest(base, fromJsonText(stored) as unknown as RequestDelta) as JsonValue;
  return (await getExchangeById(db, id)).request;
}
