import "server-only";
import type * as z from "zod";
import { decodeRequest } from "@/lib/db/request-delta";
import { MAX_REQUEST_BYTES } from "@/lib/security/origin";
import {
  requestDeltaSchema,
  SESSION_TABLES,
  sessionHeaderSchema,
  sessionLineSchema,
  type SessionExchangeLine,
  type SessionHeader,
  type SessionTable,
} from "@/lib/session/lines";
import { findSessionIssues, SESSION_KIND, sessionFileSchema, type SessionRows } from "@/lib/session/schema";
import { describeIssues, formatIssuePath, HttpError, MAX_REPORTED_ISSUES, validationError, type ApiIssue } from "./errors";
import { parseJsonText, readBodyLines } from "./http";
import { findExcessiveNesting, findJsonProblem } from "./json-input";

/** Session files over this many bytes are refused with 413: the limit of any request, since a streamed file is never held whole. */
export const MAX_SESSION_BYTES = MAX_REQUEST_BYTES;
/** What an exchange's request is stored as when the file left requests out (SE-5): an empty body. */
export const OMITTED_REQUEST = "{}";

const WHAT = "session file";

/**
 * Reads a session file from a request body (SE-5): a streamed file (version 2)
 * line by line, never holding its text whole, its deltas decoded as they come
 * to check them; a file of version 1 (one JSON object) whole, as before. Any
 * problem of shape or reference is a 400 naming each place (SE-2, SE-4), before
 * anything is written.
 */
export async function readSessionFile(request: Request): Promise<SessionRows> {
  const lines = readBodyLines(request, MAX_SESSION_BYTES, WHAT);
  const first = await lines.next();
  const head = first.done ? "" : first.value;
  const rows = isStreamedHeader(head) ? await readStreamed(parseHeader(head), lines) : await readWhole(head, lines);
  const issues = findSessionIssues(rows);
  if (issues.length > 0) throw new HttpError(400, "invalid_request", describeIssues(`invalid ${WHAT}`, issues), { issues });
  return rows;
}

/** A first line that is a whole session header of a version other than 1: the file is read line by line. */
function isStreamedHeader(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && "kind" in value && value.kind === SESSION_KIND && "version" in value && value.version !== 1;
  } catch {
    return false;
  }
}

function parseHeader(line: string): SessionHeader {
  const parsed = sessionHeaderSchema.safeParse(parseJsonText(line, WHAT));
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message, line: 1 }));
  const version = issues.find((issue) => issue.path === "version");
  if (version) version.message = "this Context Lab reads session files of versions 1 and 2";
  throw new HttpError(400, "invalid_request", describeIssues(`invalid ${WHAT}`, issues), { issues });
}

async function readWhole(head: string, rest: AsyncGenerator<string>): Promise<SessionRows> {
  const parts = [head];
  for await (const line of rest) parts.push(line);
  const parsed = sessionFileSchema.safeParse(parseJsonText(parts.join("\n"), WHAT));
  if (!parsed.success) throw validationError(parsed.error, `invalid ${WHAT}`);
  const { kind: _kind, version: _version, exportedAt: _exportedAt, ...file } = parsed.data;
  return { ...file, exchanges: file.exchanges.map((exchange) => ({ ...exchange, requestBaseId: null })) };
}

async function readStreamed(header: SessionHeader, lines: AsyncGenerator<string>): Promise<SessionRows> {
  const reader = new LineReader(header);
  let number = 1;
  for await (const line of lines) {
    number += 1;
    if (line.trim() !== "") reader.add(line, number);
  }
  return reader.finish();
}

type Body = Record<string, unknown>;
type Rows = Omit<SessionRows, "conversation">;

/** The rows of a streamed file, gathered and checked a line at a time. */
class LineReader {
  private readonly issues: ApiIssue[] = [];
  private total = 0;
  private conversation: SessionRows["conversation"] | null = null;
  private readonly rows: Rows = Object.fromEntries(SESSION_TABLES.map((table) => [table, []])) as unknown as Rows;
  private readonly seen = Object.fromEntries(SESSION_TABLES.map((table) => [table, 0])) as Record<SessionTable, number>;
  private ended = false;
  /** Each branch's last request and sent body, decoded: what the next delta of the branch is made against. */
  private readonly lastRequest = new Map<string, { id: string; body: Body }>();
  private readonly lastSent = new Map<string, { id: string; body: Body }>();

  constructor(private readonly header: SessionHeader) {}

  private problem(path: string, message: string, line?: number): void {
    this.total += 1;
    if (this.issues.length < MAX_REPORTED_ISSUES) this.issues.push({ path, message, ...(line === undefined ? {} : { line }) });
  }

  add(text: string, line: number): void {
    const nesting = findExcessiveNesting(text);
    if (nesting) {
      this.problem("", nesting.message, line);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.syntaxProblem(text, line);
      return;
    }
    const table = typeof value === "object" && value !== null && "table" in value && typeof value.table === "string" ? value.table : null;
    // A table's rows are counted and numbered by their lines, valid or not, so paths and the end line's counts hold.
    const index = table !== null && table in this.seen ? this.seen[table as SessionTable]++ : null;
    const limit = findJsonProblem(value);
    // BD-3: text the database cannot hold, numbers out of range, named at the row's path.
    if (limit) {
      this.problem(limit.path.replace(/^row(?=$|[.[])/, table === null ? "row" : index === null ? table : `${table}[${index}]`), limit.message, line);
      return;
    }
    const parsed = sessionLineSchema.safeParse(value);
    if (!parsed.success) {
      this.shapeProblems(table, index, parsed.error, line);
      return;
    }
    const entry = parsed.data;
    if (this.ended) {
      this.problem("end", "a line follows the end line", line);
      return;
    }
    if ((entry.table === "conversation") !== (line === 2))
      this.problem("conversation", "the conversation is the line after the header, and only that one", line);
    else if (entry.table === "conversation") this.conversation = entry.row;
    else if (entry.table === "end") {
      this.ended = true;
      for (const table of SESSION_TABLES)
        if (entry.rows[table] !== this.seen[table])
          this.problem(`end.rows.${table}`, `the file says ${entry.rows[table]} ${table} rows and holds ${this.seen[table]}`, line);
    } else if (entry.table === "exchanges") this.addExchange(entry.row, index!, line);
    else (this.rows[entry.table] as unknown[]).push(entry.row);
  }

  /** A line that is not JSON, with the column where it breaks. */
  private syntaxProblem(text: string, line: number): void {
    try {
      parseJsonText(text, `${WHAT}'s line ${line}`);
    } catch (error) {
      if (!HttpError.isInstance(error)) throw error;
      for (const issue of error.issues ?? []) this.problem(issue.path, issue.message, line);
    }
  }

  private shapeProblems(table: string | null, index: number | null, error: z.ZodError, line: number): void {
    for (const issue of error.issues) {
      const [first, ...rest] = issue.path;
      const path = first === "row" && table !== null ? [table, ...(index === null ? [] : [index]), ...rest] : issue.path;
      this.problem(formatIssuePath(path), issue.message, line);
    }
  }

  /** SE5: a delta must be made against the body the branch's previous line left, and decode. */
  private decoded(
    last: Map<string, { id: string; body: Body }>,
    row: SessionExchangeLine,
    text: string,
    baseId: string | null,
    field: string,
    line: number,
  ): Body | null {
    const where = `exchanges[${this.seen.exchanges - 1}]`;
    const value: unknown = JSON.parse(text);
    if (baseId === null) return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Body) : null;
    const base = last.get(row.branchId);
    if (base?.id !== baseId) {
      const expected = base ? `'${base.id}'` : "none: the branch has no earlier one";
      this.problem(`${where}.${field}BaseId`, `must name the branch's exchange before it with a ${field} body (${expected})`, line);
      return null;
    }
    const delta = requestDeltaSchema.safeParse(value);
    if (!delta.success) {
      this.problem(`${where}.${field}`, `is not a delta (${delta.error.issues[0].message} at ${formatIssuePath(delta.error.issues[0].path)})`, line);
      return null;
    }
    try {
      return decodeRequest(base.body, delta.data);
    } catch (error) {
      this.problem(`${where}.${field}`, `does not decode against exchange '${baseId}': ${error instanceof Error ? error.message : String(error)}`, line);
      return null;
    }
  }

  private addExchange(row: SessionExchangeLine, index: number, line: number): void {
    const { request, requestBaseId, sent, sentBaseId, ...rest } = row;
    const where = `exchanges[${index}]`;
    let stored = OMITTED_REQUEST;
    if (this.header.requests === "omitted") {
      if (request !== null || requestBaseId !== null) this.problem(`${where}.request`, 'must be null: the header says requests are "omitted"', line);
    } else if (request === null) this.problem(`${where}.request`, 'is missing: the header says requests are written as "delta"', line);
    else {
      const body = this.decoded(this.lastRequest, row, request, requestBaseId, "request", line);
      if (body !== null) this.lastRequest.set(row.branchId, { id: row.id, body });
      stored = request;
    }
    let sentText = sent;
    if (sent === null) {
      if (sentBaseId !== null) this.problem(`${where}.sentBaseId`, "must be null when there is no sent body", line);
    } else {
      const body = this.decoded(this.lastSent, row, sent, sentBaseId, "sent", line);
      if (body !== null) {
        this.lastSent.set(row.branchId, { id: row.id, body });
        if (sentBaseId !== null) sentText = JSON.stringify(body);
      }
    }
    this.rows.exchanges.push({ ...rest, request: stored, requestBaseId: this.header.requests === "omitted" ? null : requestBaseId, sent: sentText });
  }

  finish(): SessionRows {
    if (this.conversation === null && this.total === 0) this.problem("conversation", "the file has no conversation line", 2);
    else if (!this.ended) this.problem("end", "the file ends before its end line: it was cut short, export it again");
    if (this.total > 0) throw new HttpError(400, "invalid_request", describeIssues(`invalid ${WHAT}`, this.issues, this.total), { issues: this.issues });
    return { conversation: this.conversation!, ...this.rows };
  }
}
