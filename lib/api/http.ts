import "server-only";
import type * as z from "zod";
import { DEFAULT_MAX_IMPORT_BYTES } from "@/lib/import";
// Not re-exported by lib/import's index; a pure, isomorphic function, so reused rather than copied.
import { findSyntaxError, offsetFromEngineMessage } from "@/lib/import/syntax";
import { HttpError, errorResponse, issuesOfZodError, describeIssues, validationError } from "./errors";
import { findExcessiveNesting, findJsonProblem, type JsonProblem } from "./json-input";
import { yieldToIo } from "@/lib/memory/slices";

/** Import bodies (pasted or dropped text) over this many bytes are refused with 413: 20 MB, the import parser's own limit. */
export const MAX_IMPORT_BODY_BYTES = DEFAULT_MAX_IMPORT_BYTES;
/** JSON request bodies over this many bytes are refused with 413: 5 MB. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;

/** The second argument Next passes a route handler; `params` is a Promise since Next 15. */
export interface RouteContext<Params> {
  params: Promise<Params>;
}

/**
 * Wraps a handler so whatever it throws becomes the mapped JSON error
 * (errors.ts), and hands it the awaited route params.
 * @example export const GET = route<{ id: string }>(async (request, { id }) => json(await load(id)))
 */
export function route<Params extends Record<string, string> = Record<string, never>>(
  handler: (request: Request, params: Params) => Promise<Response>,
): (request: Request, context?: RouteContext<Params>) => Promise<Response> {
  return async (request, context) => {
    try {
      const params = ((await context?.params) ?? {}) as Params;
      return await handler(request, params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** A method a route may serve. */
export type HttpMethod = (typeof HTTP_METHODS)[number];
type MethodHandler = (request: Request) => Promise<Response>;

function allowHeader(allowed: readonly HttpMethod[]): string {
  return [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/**
 * Handlers for every method a route does not serve: 405 with `Allow` and a
 * JSON body (Next's own 405 has neither), and an OPTIONS naming the real
 * methods. Each route file exports them beside its own handlers.
 * @example export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET", "POST");
 */
export function otherMethods(...allowed: HttpMethod[]): Record<string, MethodHandler> {
  const allow = allowHeader(allowed);
  const refuse: MethodHandler = async (request) => {
    const message = `${request.method} is not allowed on ${new URL(request.url).pathname}; it accepts ${allow}`;
    return Response.json({ error: { code: "method_not_allowed", message, allow: allow.split(", ") } }, { status: 405, headers: { allow } });
  };
  const handlers: Record<string, MethodHandler> = { OPTIONS: async () => new Response(null, { status: 204, headers: { allow } }) };
  for (const method of HTTP_METHODS) if (!allowed.includes(method)) handlers[method] = refuse;
  return handlers;
}

/** A JSON response; `status` defaults to 200. */
export function json(data: unknown, status = 200): Response {
  return Response.json(data, { status });
}

/** 204 No Content. */
export function noContent(): Response {
  return new Response(null, { status: 204 });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

function tooLarge(bytes: number, limit: number, what: string, exact: boolean): HttpError {
  // Near the limit both round alike ("20 MB, over the 20 MB limit"): then say the bytes.
  const size = formatBytes(bytes) === formatBytes(limit) ? `${bytes} bytes` : formatBytes(bytes);
  const message = exact
    ? `the ${what} is ${size}, over the ${formatBytes(limit)} limit (${limit} bytes)`
    : `the ${what} is larger than the ${formatBytes(limit)} limit (${limit} bytes)`;
  return new HttpError(413, "payload_too_large", message, { details: { bytes, limit } });
}

/**
 * The request body's lines (without their "\n"), decoded as they arrive, so
 * a body is never held whole: refused with 413 past `limit` bytes like
 * `readBodyText`, and with 400 when it is not UTF-8.
 */
export async function* readBodyLines(request: Request, limit: number, what = "request body"): AsyncGenerator<string, void, undefined> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(declared, limit, what, true);
  if (!request.body) return;
  const reader = request.body.getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let pending = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limit) throw tooLarge(bytes, limit, what, false);
      // Only the new text is searched, so a long line arriving in many chunks is scanned once.
      let searchFrom = pending.length;
      pending += decodeChunk(decoder, value, what);
      let start = 0;
      for (let end = pending.indexOf("\n", searchFrom); end >= 0; end = pending.indexOf("\n", searchFrom)) {
        yield pending.slice(start, end);
        start = end + 1;
        searchFrom = start;
      }
      pending = pending.slice(start);
    }
    pending += decodeChunk(decoder, undefined, what);
    if (pending !== "") yield pending;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function decodeChunk(decoder: TextDecoder, chunk: Uint8Array | undefined, what: string): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch {
    throw new HttpError(400, "invalid_request", `the ${what} is not valid UTF-8 text`, { issues: [{ path: "", message: "not valid UTF-8" }] });
  }
}

/** Bytes of a body read between two turns of the event loop. */
const READ_PAUSE_BYTES = 4 * 1024 * 1024;

/**
 * The request body as text, refused with 413 past `limit` bytes: first by
 * its `content-length`, then while streaming (a chunked body has none, and
 * a header can lie), so an oversized body is never held whole.
 */
export async function readBodyText(request: Request, limit: number, what = "request body"): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(declared, limit, what, true);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let sincePause = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    sincePause += value.byteLength;
    // RL-ST1: a body that has all arrived reads chunk after chunk without a turn of the event loop; other requests get one every few megabytes.
    if (sincePause >= READ_PAUSE_BYTES) {
      sincePause = 0;
      await yieldToIo();
    }
    if (bytes > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(bytes, limit, what, false);
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(whole);
  } catch {
    throw new HttpError(400, "invalid_request", `the ${what} is not valid UTF-8 text`, { issues: [{ path: "", message: "not valid UTF-8" }] });
  }
}

/** 1-based line and column (UTF-16 code units) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset && index < text.length; index += 1) {
    if (text.charCodeAt(index) === 10) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: Math.min(offset, text.length) - lineStart + 1 };
}

/** BD3: a 400 naming where a JSON input breaks a limit (`findJsonProblem`). */
export function jsonProblemError(problem: JsonProblem, what = "request body"): HttpError {
  const where = problem.path === "" ? `the ${what}` : problem.path;
  return new HttpError(400, "invalid_request", `${where} ${problem.message}`, { issues: [{ path: problem.path, message: problem.message }] });
}

/** BD-3: throws a 400 naming the line and column where JSON text nests past MAX_JSON_DEPTH, before anything parses or walks it. */
export function requireShallowJson(text: string, what = "request body"): void {
  const nesting = findExcessiveNesting(text);
  if (!nesting) return;
  const { line, column } = lineAndColumn(text, nesting.offset ?? 0);
  const message = `the ${what} ${nesting.message} (line ${line}, column ${column})`;
  throw new HttpError(400, "invalid_json", message, { issues: [{ path: "", message: nesting.message, line, column }] });
}

/**
 * Parses JSON text, or throws a 400 naming what broke and where: a syntax
 * error's line and column, nesting past MAX_JSON_DEPTH (checked before
 * parsing), and the field breaking any other limit of `findJsonProblem`
 * (BD-3: string and array length, lone surrogates, U+0000, numbers).
 */
export function parseJsonText(text: string, what = "request body"): unknown {
  requireShallowJson(text, what);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    // V8 words some errors without a position ("Unexpected token '}', ..."), so the import's scanner finds it.
    const problem = findSyntaxError(text) ?? { offset: offsetFromEngineMessage(text, reason) ?? text.length, message: reason };
    const { line, column } = lineAndColumn(text, problem.offset);
    const message = `the ${what} is not valid JSON: ${problem.message} (line ${line}, column ${column})`;
    throw new HttpError(400, "invalid_json", message, { issues: [{ path: "", message: problem.message, line, column }] });
  }
  const problem = findJsonProblem(value);
  if (problem) throw jsonProblemError(problem, what);
  return value;
}

/**
 * Reads, size-checks, parses and validates a JSON body. An empty body reads
 * as `{}`, so bodies whose fields are all optional may be left out.
 */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const text = await readBodyText(request, MAX_JSON_BODY_BYTES);
  const value = text.trim() === "" ? {} : parseJsonText(text);
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, "invalid request body");
  return result.data;
}

/**
 * Validates the query string; repeated parameters keep their last value.
 * Each value passes the limits of any JSON string first (BD-3): `?title=%00`
 * decodes to U+0000, which PostgreSQL cannot store or compare.
 */
export function readQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.output<Schema> {
  const query = Object.fromEntries(new URL(request.url).searchParams.entries());
  for (const [key, value] of Object.entries(query)) {
    const problem = findJsonProblem(value);
    if (problem) {
      const message = `query parameter ${key} ${problem.message}`;
      throw new HttpError(400, "invalid_request", message, { issues: [{ path: key, message: problem.message }] });
    }
  }
  const result = schema.safeParse(query);
  if (!result.success) {
    const issues = issuesOfZodError(result.error);
    throw new HttpError(400, "invalid_request", describeIssues("invalid query parameters", issues), { issues });
  }
  return result.data;
}
