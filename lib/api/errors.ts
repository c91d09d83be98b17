import "server-only";
import * as z from "zod";
import { BudgetExceededError, ContextError } from "@/lib/context";
import { ConflictError, DatabaseError, DatabaseUnavailableError, InvalidArgumentError, NotFoundError } from "@/lib/db";
import { ImportError, type ImportIssue } from "@/lib/import";
import { MarkedError } from "@/lib/context/light";

/** One located problem of a request: a body field, a query parameter, a line of an import. */
export interface ApiIssue {
  /** `messages[14].tool_call_id`, `limit`, `""` for the whole body. */
  path: string;
  message: string;
  line?: number;
  column?: number;
  messageIndex?: number;
  conversationIndex?: number;
}

/** What every error response carries. */
export type ApiErrorCode =
  | "invalid_request"
  | "invalid_json"
  | "import_failed"
  | "payload_too_large"
  | "too_many_conversations"
  | "not_found"
  | "conflict"
  | "invalid_argument"
  | "tool_pairing"
  | "context_error"
  | "budget_exceeded"
  | "replay_timeout"
  | "database_unavailable"
  | "unauthorized"
  | "forbidden"
  | "method_not_allowed"
  | "internal_error";

/** The JSON body of every error response. */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; issues?: ApiIssue[] } & Record<string, unknown>;
}

/** An error a handler raises on purpose, already in HTTP terms. */
export class HttpError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.api.error");
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly issues?: ApiIssue[];
  /** Extra fields of the error body (`bytes`, `limit`, `resource`). */
  readonly details?: Record<string, unknown>;

  constructor(status: number, code: ApiErrorCode, message: string, options: { issues?: ApiIssue[]; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = "HttpError";
    this.status = status;
    this.code = code;
    this.issues = options.issues;
    this.details = options.details;
  }
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/** `["messages", 14, "tool_call_id"]` → `messages[14].tool_call_id`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (typeof segment === "string" && identifier.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(String(segment))}]`;
  }
  return text;
}

/** Zod's issues as API issues; a path into `messages` also names the message index. */
export function issuesOfZodError(error: z.ZodError, prefix: readonly PropertyKey[] = [], limit = Number.POSITIVE_INFINITY): ApiIssue[] {
  return error.issues.slice(0, limit).map((issue) => {
    const path = [...prefix, ...issue.path];
    const located: ApiIssue = { path: formatIssuePath(path), message: issue.message };
    const messagesAt = path.indexOf("messages");
    const index = messagesAt >= 0 ? path[messagesAt + 1] : undefined;
    if (typeof index === "number") located.messageIndex = index;
    return located;
  });
}

/** "messages[14].tool_call_id: Invalid input ..." for the first few issues, so the message alone says what to fix. */
export function describeIssues(what: string, issues: readonly ApiIssue[], total = issues.length): string {
  const shown = issues.slice(0, 3).map((issue) => (issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`));
  const more = total > shown.length ? `; and ${total - shown.length} more` : "";
  return `${what}: ${shown.join("; ")}${more}`;
}

/**
 * RL-ST5: a body can fail its schema in millions of places (a 2.5M-element array of wrong items):
 * the answer lists the first 100 issues and its message counts them all.
 */
export const MAX_REPORTED_ISSUES = 100;

/** A 400 for a request that failed its zod schema. */
export function validationError(error: z.ZodError, what: string, prefix: readonly PropertyKey[] = []): HttpError {
  const issues = issuesOfZodError(error, prefix, MAX_REPORTED_ISSUES);
  return new HttpError(400, "invalid_request", describeIssues(what, issues, error.issues.length), { issues });
}

function importIssue(issue: ImportIssue): ApiIssue {
  const { path, message, line, column, messageIndex, conversationIndex } = issue;
  return Object.fromEntries(
    Object.entries({ path, message, line, column, messageIndex, conversationIndex }).filter(([, value]) => value !== undefined),
  ) as unknown as ApiIssue;
}

/** An engine error's `where`; one that points into the request's messages (`messages[2]`) becomes a located issue too. */
function contextWhere(where: string, message: string): Record<string, unknown> {
  const index = /^messages\[(\d+)\]/.exec(where);
  if (!index) return { where };
  return { where, issues: [{ path: where, message, messageIndex: Number(index[1]) }] };
}

function body(code: ApiErrorCode, message: string, extra: Record<string, unknown> = {}): ApiErrorBody {
  return { error: { code, message, ...extra } };
}

/** Status and body for anything a handler threw; unexpected errors are logged here, never swallowed. */
export function describeError(error: unknown): { status: number; body: ApiErrorBody } {
  if (HttpError.isInstance(error)) {
    return { status: error.status, body: body(error.code, error.message, { ...error.details, ...(error.issues ? { issues: error.issues } : {}) }) };
  }
  if (error instanceof z.ZodError) {
    const api = validationError(error, "invalid request");
    return describeError(api);
  }
  if (ImportError.isInstance(error)) {
    const issues = error.issues.map(importIssue);
    if (error.tooLarge) return { status: 413, body: body("payload_too_large", error.message, { ...error.tooLarge, issues }) };
    return { status: 400, body: body("import_failed", error.message, { issues, truncated: error.truncated }) };
  }
  if (NotFoundError.isInstance(error)) return { status: 404, body: body("not_found", error.message, { resource: error.resource, id: error.id }) };
  if (ConflictError.isInstance(error)) return { status: 409, body: body("conflict", error.message, { resource: error.resource }) };
  if (InvalidArgumentError.isInstance(error)) {
    return { status: 400, body: body("invalid_argument", error.message, { issues: [{ path: error.argument, message: error.message }] }) };
  }
  if (DatabaseUnavailableError.isInstance(error)) {
    // `database` names it for the UI's banner ("database unavailable, retrying"); credentials are never in it.
    return { status: 503, body: body("database_unavailable", error.message, { database: error.database, retryable: true }) };
  }
  if (BudgetExceededError.isInstance(error)) {
    return { status: 422, body: body("budget_exceeded", error.message, { budget: error.budget, tokens: error.tokens }) };
  }
  if (ContextError.isInstance(error)) {
    return { status: 422, body: body("context_error", error.message, error.where === undefined ? {} : contextWhere(error.where, error.message)) };
  }
  console.error("[api] unexpected error:", error);
  const detail = error instanceof Error ? error.message : String(error);
  const what = DatabaseError.isInstance(error) ? "database error" : "internal error";
  // Outside production the cause helps whoever runs the playground locally; the log always has it.
  const message = process.env.NODE_ENV === "production" ? `${what}: see the server log` : `${what}: ${detail} (see the server log)`;
  return { status: 500, body: body("internal_error", message) };
}

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 2;

/** The JSON error response for anything a handler threw. */
export function errorResponse(error: unknown): Response {
  const { status, body: payload } = describeError(error);
  return Response.json(payload, { status, headers: status === 503 ? { "retry-after": String(RETRY_AFTER_SECONDS) } : undefined });
}
