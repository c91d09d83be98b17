/**
 * Helicone request rows, as its UI exports them (JSONL), its export CLI
 * writes them (JSON or JSONL) and its query API returns them (`{data: [...]}`):
 * one row a model call. Rows of one Helicone session (the
 * `Helicone-Session-Id` property) are one conversation, in time order, each
 * row adding what its request sent and its reply, with the row's facts on the
 * messages it produced; other rows are one conversation each.
 */
import type { DocumentImporter, ImportContext, LinesImporter } from "../../registry";
import { isRecord, type JsonPath } from "../../issues";
import type { ConversationDraft } from "../../requests";
import { assembleCalls, type CallThread } from "../threads";
import { fieldOf, readRow, type RowCall } from "./row";

const ROW_MARKERS = [
  "request_id",
  "request_created_at",
  "response_created_at",
  "delay_ms",
  "signed_body_url",
  "helicone_user",
  "request_properties",
  "costUSD",
];

/** A Helicone row: a request body (`request_body` or `request.body`) and a field only Helicone's rows have. */
export function isHeliconeRow(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const request = value.request;
  const hasBody = "request_body" in value || (isRecord(request) && "body" in request && ("created_at" in request || "id" in request));
  return hasBody && (ROW_MARKERS.some((key) => key in value) || isRecord(request));
}

/** The rows of a document and where each sits: a row, an array of rows, or the query API's `{data: rows}` (or `{data: row}`). */
function rowsOf(value: unknown, path: JsonPath): { row: Record<string, unknown>; path: JsonPath }[] {
  if (isHeliconeRow(value)) return [{ row: value, path }];
  if (Array.isArray(value)) return value.flatMap((row, index) => rowsOf(row, [...path, index]));
  if (isRecord(value) && (Array.isArray(value.data) || isHeliconeRow(value.data))) return rowsOf(value.data, [...path, "data"]);
  return [];
}

export const heliconeImporter: DocumentImporter = {
  format: "helicone",
  detect(value) {
    const envelope = isRecord(value) && "data" in value && Object.keys(value).every((key) => key === "data" || key === "error") ? value.data : value;
    if (isHeliconeRow(envelope)) return true;
    return Array.isArray(envelope) && envelope.length > 0 && envelope.every(isHeliconeRow);
  },
  convert(value, place, context) {
    return convertRows(rowsOf(value, place.path), context);
  },
};

/** The UI's JSONL export: one row a line. */
export const heliconeLinesImporter: LinesImporter = {
  format: "helicone",
  detectLines(values) {
    return values.length > 0 && values.every((value) => heliconeImporter.detect(value));
  },
  convertLines(records, context) {
    return convertRows(
      records.flatMap((record, index) => rowsOf(record.value, [index])),
      context,
    );
  },
};

function sessionIdOf(row: Record<string, unknown>): string | undefined {
  for (const properties of [row.properties, row.request_properties, fieldOf(row, "request", "properties")]) {
    if (!isRecord(properties)) continue;
    const key = Object.keys(properties).find((name) => name.toLowerCase() === "helicone-session-id");
    if (key !== undefined && typeof properties[key] === "string") return properties[key];
  }
  return undefined;
}

function timeOf(row: Record<string, unknown>): number {
  const time = Date.parse(String(fieldOf(row, "request", "created_at") ?? ""));
  return Number.isNaN(time) ? 0 : time;
}

function convertRows(rows: readonly { row: Record<string, unknown>; path: JsonPath }[], context: ImportContext): ConversationDraft[] {
  const groups = new Map<string, { row: Record<string, unknown>; path: JsonPath }[]>();
  rows.forEach((entry, index) => {
    const key = sessionIdOf(entry.row) ?? `row ${index}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  });
  // The query API lists the newest row first: conversations and their rows are put in time order.
  const ordered = [...groups.values()].map((group) => [...group].sort((left, right) => timeOf(left.row) - timeOf(right.row)));
  ordered.sort((left, right) => timeOf(left[0].row) - timeOf(right[0].row));
  return ordered.flatMap((group, index) => {
    const calls = group.map(({ row, path }) => readRow(row, path, context.scope(path, groups.size > 1 ? index : undefined)));
    return assembleCalls(calls, "requests of the session").map(toDraft);
  });
}

function toDraft(thread: CallThread<RowCall>): ConversationDraft {
  const rows = thread.calls.map((call) => call.row);
  const first = rows[0];
  const draft: ConversationDraft = { format: "helicone", messages: thread.messages, warnings: thread.warnings, facts: thread.facts, source: sourceOf(rows) };
  const tools = thread.calls.map((call) => call.tools).findLast((found) => found !== undefined);
  if (tools !== undefined) draft.tools = tools;
  const sessionId = sessionIdOf(first);
  if (sessionId !== undefined) draft.session = { sessionId };
  const properties = [first.properties, first.request_properties].find(isRecord) ?? {};
  if (typeof properties["Helicone-Session-Name"] === "string") draft.title = properties["Helicone-Session-Name"];
  return draft;
}

/** What the rows say besides the calls: provider, user, properties, and the cost Helicone reported, per request and in all. */
function sourceOf(rows: readonly Record<string, unknown>[]): Record<string, unknown> {
  const first = rows[0];
  const source: Record<string, unknown> = {};
  const provider = first.provider ?? fieldOf(first, "request", "provider");
  if (provider !== undefined) source.provider = provider;
  const user = first.request_user_id ?? first.user_id ?? first.helicone_user ?? fieldOf(first, "request", "user_id");
  if (user !== undefined && user !== null) source.userId = user;
  const properties = [first.properties, first.request_properties].find(isRecord);
  if (properties !== undefined) source.properties = properties;
  const costs = rows.map((row) => row.costUSD ?? row.cost ?? row.cost_usd);
  if (costs.some((cost) => typeof cost === "number")) {
    // Twelve digits: the sum of binary fractions would otherwise show float noise.
    source.costUSD = Number(costs.reduce<number>((sum, cost) => sum + (typeof cost === "number" ? cost : 0), 0).toPrecision(12));
    source.requests = rows.map((row, index) => ({ requestId: fieldOf(row, "request", "id"), costUSD: costs[index] }));
  } else source.requests = rows.map((row) => ({ requestId: fieldOf(row, "request", "id") }));
  return source;
}
