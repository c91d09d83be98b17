import * as z from "zod";
import { extensionProblem, jsonColumnProblem, MAX_STORED_INTEGER, objectProblem, toolCallsProblem, toolsProblem } from "@/lib/db/stored-shapes";

// A session file: one conversation with everything stored for it, row by row,
// as the database holds it (ids, revisions, JSON columns as their stored text),
// so importing it into another database gives the same rows (SE-1). Version 1
// is one JSON object; version 2 (lines.ts) is written and read line by line.

export const SESSION_KIND = "context-lab-session";
/** The version of the one-object files written before sessions were streamed (SE-5 reads them still). */
export const SESSION_VERSION = 1;

const id = z.string().min(1, "an id is needed");
const text = z.string();

/** A JSON column: JSON text nested no deeper than any input, whose value passes `check` (IN-6). */
function jsonOf(check: (value: unknown) => string | null = () => null) {
  return z.string().superRefine((value, context) => {
    const problem = jsonColumnProblem(value, check);
    if (problem) context.addIssue({ code: "custom", message: problem === "is not JSON text" ? "not JSON text" : problem });
  });
}

const json = jsonOf();
// IN-6: PostgreSQL's timestamps start at the year 1; SQLite would take year 0, so both refuse it alike.
const date = z.iso
  .datetime({ error: "expected an ISO date-time" })
  .refine((value) => new Date(value).getUTCFullYear() >= 1, "must be in the year 1 or later (UTC), the earliest time PostgreSQL stores");
// IN-6: whole numbers an Int column holds on both databases.
const int = z
  .number()
  .int("expected a whole number")
  .min(-MAX_STORED_INTEGER, `must be at least ${-MAX_STORED_INTEGER}`)
  .max(MAX_STORED_INTEGER, `must be at most ${MAX_STORED_INTEGER}`);
const count = int.min(0, "must not be negative");

/** The column types the rows are made of, for the streamed format's own lines (lines.ts). */
export const sessionFields = { id, json, date, count };

export const sessionConversationSchema = z.strictObject({
  id,
  title: text,
  source: text,
  settings: jsonOf(objectProblem),
  tools: jsonOf(toolsProblem).nullable(),
  recordKey: text.nullable(),
  // Files written before sessions kept their origin have none of these four.
  origin: jsonOf(objectProblem).nullable().default(null),
  sessionKey: text.nullable().default(null),
  parentId: id.nullable().default(null),
  parentCallId: text.nullable().default(null),
  createdAt: date,
  updatedAt: date,
});

export const sessionBranchSchema = z.strictObject({
  id,
  conversationId: id,
  name: text,
  parentId: id.nullable(),
  forkPosition: count.nullable(),
  forkRevision: count.nullable(),
  length: count,
  revision: count,
  checkpointCount: count,
  createdAt: date,
});

export const sessionMessageSchema = z.strictObject({
  id,
  branchId: id,
  position: count,
  role: text.refine((role) => ["system", "user", "assistant", "tool"].includes(role), "role must be system, user, assistant or tool"),
  content: text.nullable(),
  toolCalls: jsonOf(toolCallsProblem).nullable(),
  toolCallId: text.nullable(),
  name: text.nullable(),
  extension: jsonOf(extensionProblem).nullable(),
  tokens: count,
  metadata: jsonOf(objectProblem).nullable(),
  createdAt: date,
});

export const sessionSummarySchema = z.strictObject({
  id,
  branchId: id,
  fromPosition: count,
  toPosition: count,
  text,
  tokens: count,
  extendsId: id.nullable(),
  revision: count,
  createdAt: date,
});

export const sessionCheckpointSchema = z.strictObject({
  id,
  branchId: id,
  version: count,
  values: json,
  tokenUsage: json,
  artifactRefs: json,
  metadata: json.nullable(),
  messageCount: count,
  summaryId: id.nullable(),
  revision: count,
  createdAt: date,
});

export const sessionOffloadedSchema = z.strictObject({
  id,
  branchId: id,
  handle: text,
  kind: text,
  content: text,
  position: count,
  size: count,
  revision: count,
  createdAt: date,
});

export const sessionArtifactSchema = z.strictObject({
  id,
  branchId: id,
  toolCallId: text.nullable(),
  toolName: text.nullable(),
  content: text,
  summary: text,
  size: count,
  tokens: count,
  position: count,
  revision: count,
  createdAt: date,
});

export const sessionExchangeSchema = z.strictObject({
  id,
  conversationId: id,
  branchId: id,
  request: json,
  sent: json.nullable(),
  response: json.nullable(),
  status: int.nullable(),
  error: json.nullable(),
  streamed: z.boolean(),
  durationMs: count.nullable(),
  createdAt: date,
});

export const sessionPolicySchema = z.strictObject({
  id,
  conversationId: id,
  name: text,
  policy: json,
  createdAt: date,
  updatedAt: date,
});

/** A whole session: the conversation and every row stored for it. */
export const sessionFileSchema = z.strictObject({
  kind: z.literal(SESSION_KIND, { error: `not a session file: "kind" must be "${SESSION_KIND}"` }),
  version: z.literal(SESSION_VERSION, { error: `this Context Lab reads session files of version ${SESSION_VERSION}` }),
  exportedAt: date,
  conversation: sessionConversationSchema,
  branches: z.array(sessionBranchSchema).min(1, "a session has at least its root branch"),
  messages: z.array(sessionMessageSchema),
  summaries: z.array(sessionSummarySchema),
  checkpoints: z.array(sessionCheckpointSchema),
  offloaded: z.array(sessionOffloadedSchema),
  artifacts: z.array(sessionArtifactSchema),
  exchanges: z.array(sessionExchangeSchema),
  policies: z.array(sessionPolicySchema),
});

export type SessionFile = z.infer<typeof sessionFileSchema>;

/** An exchange as the database stores it: with `requestBaseId`, its `request` is a delta against that exchange's (PX-D6.4). */
export type SessionExchangeRow = z.infer<typeof sessionExchangeSchema> & { requestBaseId: string | null };

/** The rows of a session, read from a file of either version, ready to be written (SE-1). */
export interface SessionRows extends Omit<SessionFile, "kind" | "version" | "exportedAt" | "exchanges"> {
  exchanges: SessionExchangeRow[];
}

/** One broken reference of a session file, located. */
export interface SessionIssue {
  path: string;
  message: string;
}

/**
 * The references a session's rows make that the file does not hold (SE-2):
 * each must point at the conversation, a branch or a summary of the same file,
 * and branches must form one tree under a root.
 */
export function findSessionIssues(file: SessionRows | SessionFile): SessionIssue[] {
  const issues: SessionIssue[] = [];
  const conversationId = file.conversation.id;
  const branchIds = new Set(file.branches.map((branch) => branch.id));
  const summaryIds = new Set(file.summaries.map((summary) => summary.id));
  const unique = (rows: readonly { id: string }[], name: string) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      if (seen.has(row.id)) issues.push({ path: `${name}[${index}].id`, message: `'${row.id}' appears twice` });
      seen.add(row.id);
    });
  };
  for (const [name, rows] of Object.entries({
    branches: file.branches,
    messages: file.messages,
    summaries: file.summaries,
    checkpoints: file.checkpoints,
    offloaded: file.offloaded,
    artifacts: file.artifacts,
    exchanges: file.exchanges,
    policies: file.policies,
  }))
    unique(rows, name);
  const ownConversation = (rows: readonly { conversationId: string }[], name: string) =>
    rows.forEach((row, index) => {
      if (row.conversationId !== conversationId)
        issues.push({ path: `${name}[${index}].conversationId`, message: `'${row.conversationId}' is not the session's conversation '${conversationId}'` });
    });
  const ownBranch = (rows: readonly { branchId: string }[], name: string) =>
    rows.forEach((row, index) => {
      if (!branchIds.has(row.branchId)) issues.push({ path: `${name}[${index}].branchId`, message: `no branch '${row.branchId}' in the file` });
    });
  ownConversation(file.branches, "branches");
  ownConversation(file.exchanges, "exchanges");
  ownConversation(file.policies, "policies");
  for (const [name, rows] of Object.entries({
    messages: file.messages,
    summaries: file.summaries,
    checkpoints: file.checkpoints,
    offloaded: file.offloaded,
    artifacts: file.artifacts,
    exchanges: file.exchanges,
  }))
    ownBranch(rows, name);
  const roots = file.branches.filter((branch) => branch.parentId === null).length;
  if (roots !== 1) issues.push({ path: "branches", message: `a session has one root branch, this one has ${roots}` });
  file.branches.forEach((branch, index) => {
    if (branch.parentId !== null && !branchIds.has(branch.parentId))
      issues.push({ path: `branches[${index}].parentId`, message: `no branch '${branch.parentId}' in the file` });
  });
  for (const index of rowsAboveThemselves(file.branches, (branch) => branch.parentId))
    issues.push({ path: `branches[${index}].parentId`, message: `branch '${file.branches[index].id}' descends from itself` });
  file.summaries.forEach((summary, index) => {
    if (summary.extendsId !== null && !summaryIds.has(summary.extendsId))
      issues.push({ path: `summaries[${index}].extendsId`, message: `no summary '${summary.extendsId}' in the file` });
  });
  for (const index of rowsAboveThemselves(file.summaries, (summary) => summary.extendsId))
    issues.push({ path: `summaries[${index}].extendsId`, message: `summary '${file.summaries[index].id}' extends itself, through the summaries it extends` });
  file.checkpoints.forEach((checkpoint, index) => {
    if (checkpoint.summaryId !== null && !summaryIds.has(checkpoint.summaryId))
      issues.push({ path: `checkpoints[${index}].summaryId`, message: `no summary '${checkpoint.summaryId}' in the file` });
  });
  return issues;
}

/** The indexes of the rows whose chain of `parent`s comes back to a row already on it (a branch under itself, a summary extending itself). */
function rowsAboveThemselves<Row extends { id: string }>(rows: readonly Row[], parent: (row: Row) => string | null): number[] {
  const parentOf = new Map(rows.map((row) => [row.id, parent(row)]));
  const found: number[] = [];
  rows.forEach((row, index) => {
    const seen = new Set([row.id]);
    for (let above = parent(row); above !== null && parentOf.has(above); above = parentOf.get(above) ?? null) {
      if (seen.has(above)) {
        found.push(index);
        break;
      }
      seen.add(above);
    }
  });
  return found;
}

/** Rows ordered so each comes after the row its `parent` names (branches under their parents, summaries after the ones they extend); cycles keep file order. */
export function parentsFirst<Row extends { id: string }>(rows: readonly Row[], parent: (row: Row) => string | null): Row[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const placed = new Set<string>();
  const ordered: Row[] = [];
  const place = (row: Row, path: Set<string>) => {
    if (placed.has(row.id) || path.has(row.id)) return;
    path.add(row.id);
    const above = parent(row);
    const parentRow = above === null ? undefined : byId.get(above);
    if (parentRow) place(parentRow, path);
    placed.add(row.id);
    ordered.push(row);
  };
  for (const row of rows) place(row, new Set());
  return ordered;
}
