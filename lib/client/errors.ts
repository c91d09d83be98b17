// The server's own types (erased at build time: nothing server-only reaches the browser).
import type { ApiIssue, ApiErrorCode as ServerErrorCode } from "@/lib/api/errors";
import { MarkedError } from "@/lib/context/light";
import type { RecorderErrorCode } from "@/lib/chat/errors";

export type { ApiIssue };

/**
 * The API's codes (`not_found`, `conflict`, `invalid_request`, ...) and the
 * chat recorder's, as the server declares them, plus the client's own:
 * `network_error` (no response), `invalid_response` (a body that is not the
 * JSON promised) and `aborted` (the caller's signal fired).
 */
export type ApiErrorCode = ServerErrorCode | RecorderErrorCode | ClientErrorCode;

/** The client's own codes; `http_<status>` for an error response without the API's body. */
type ClientErrorCode = "network_error" | "invalid_response" | "aborted" | "client_error" | `http_${number}`;

/** Every failure of the API client: an error response, a network failure, an unreadable body, an abort. */
export class ApiError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.client.api-error");
  /** HTTP status; 0 when no response arrived. */
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly issues: ApiIssue[];
  /** Extra fields of the error body (`bytes`, `limit`, `resource`, `budget`). */
  readonly details: Record<string, unknown>;

  constructor(status: number, code: ApiErrorCode, message: string, options: { issues?: ApiIssue[]; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.issues = options.issues ?? [];
    this.details = options.details ?? {};
  }

  /** True for the error a fired abort signal produced: callers usually ignore it. */
  static isAbort(error: unknown): boolean {
    return ApiError.isInstance(error) && error.code === "aborted";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readIssues(value: unknown): ApiIssue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((issue) => {
    const read: ApiIssue = {
      path: typeof issue.path === "string" ? issue.path : "",
      message: typeof issue.message === "string" ? issue.message : String(issue.message),
    };
    for (const key of ["line", "column", "messageIndex", "conversationIndex"] as const) {
      if (typeof issue[key] === "number") read[key] = issue[key];
    }
    return read;
  });
}

/**
 * The ApiError for an error response: `{ error: { code, message, issues } }`
 * when the body has that shape, else the status and whatever text came back.
 */
export function errorFromBody(status: number, statusText: string, bodyText: string, what: string): ApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  if (error && typeof error.message === "string") {
    const { code, message, issues, ...details } = error;
    return new ApiError(status, typeof code === "string" ? (code as ApiErrorCode) : `http_${status}`, message, { issues: readIssues(issues), details });
  }
  const text = bodyText.trim().slice(0, 200);
  const reason = text === "" ? statusText || "no body" : text;
  return new ApiError(status, `http_${status}`, `${what} failed with HTTP ${status}: ${reason}`);
}
