import * as z from "zod";
import {
  SESSION_KIND,
  sessionArtifactSchema,
  sessionBranchSchema,
  sessionCheckpointSchema,
  sessionConversationSchema,
  sessionExchangeSchema,
  sessionFields,
  sessionMessageSchema,
  sessionOffloadedSchema,
  sessionPolicySchema,
  sessionSummarySchema,
} from "./schema";

// A version 2 session file (SE-5): one JSON value a line, so it is written and
// read a row at a time. The header, the conversation, each table's rows, then
// an end line with the counts, which tells a whole file from one cut short.

export const SESSION_STREAM_VERSION = 2;

/** How the exchanges' request bodies are written: as deltas against the call before (PX-D6), or left out. */
export const SESSION_REQUESTS = ["delta", "omitted"] as const;
export type SessionRequests = (typeof SESSION_REQUESTS)[number];

/** The tables of a session, in the order a file holds them. */
export const SESSION_TABLES = ["branches", "messages", "summaries", "checkpoints", "offloaded", "artifacts", "exchanges", "policies"] as const;
export type SessionTable = (typeof SESSION_TABLES)[number];

const { id, json, date, count } = sessionFields;

export const sessionHeaderSchema = z.strictObject({
  kind: z.literal(SESSION_KIND, { error: `not a session file: "kind" must be "${SESSION_KIND}"` }),
  version: z.literal(SESSION_STREAM_VERSION),
  exportedAt: date,
  requests: z.enum(SESSION_REQUESTS, { error: `"requests" must be ${SESSION_REQUESTS.join(" or ")}` }),
});
export type SessionHeader = z.infer<typeof sessionHeaderSchema>;

/**
 * An exchange line: `request` whole, or with `requestBaseId` a delta (PX-D6.1)
 * against the request of the exchange before it on its branch; `sent` alike
 * with `sentBaseId`, against the last exchange of the branch that has one.
 * With requests left out, `request` is null.
 */
export const sessionExchangeLineSchema = sessionExchangeSchema.extend({
  request: json.nullable(),
  requestBaseId: id.nullable(),
  sentBaseId: id.nullable(),
});
export type SessionExchangeLine = z.infer<typeof sessionExchangeLineSchema>;

const row = <Table extends string, Row extends z.ZodType>(table: Table, schema: Row) => z.strictObject({ table: z.literal(table), row: schema });

export const sessionLineSchema = z.discriminatedUnion("table", [
  row("conversation", sessionConversationSchema),
  row("branches", sessionBranchSchema),
  row("messages", sessionMessageSchema),
  row("summaries", sessionSummarySchema),
  row("checkpoints", sessionCheckpointSchema),
  row("offloaded", sessionOffloadedSchema),
  row("artifacts", sessionArtifactSchema),
  row("exchanges", sessionExchangeLineSchema),
  row("policies", sessionPolicySchema),
  z.strictObject({
    table: z.literal("end"),
    rows: z.strictObject(Object.fromEntries(SESSION_TABLES.map((table) => [table, count])) as Record<SessionTable, typeof count>),
  }),
]);
export type SessionLine = z.infer<typeof sessionLineSchema>;

/** A request delta as a file holds it (PX-D6.1): checked before it is decoded. */
export const requestDeltaSchema = z.strictObject({
  history: z.enum(["messages", "input"]),
  kept: count,
  body: z.record(z.string(), z.unknown()),
  same: z.array(z.string()),
});

/** One line of a session file, newline included. */
export function sessionLineText(line: SessionHeader | SessionLine): string {
  return `${JSON.stringify(line)}\n`;
}
