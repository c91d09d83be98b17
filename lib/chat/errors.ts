import "server-only";
import type { ApiIssue } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/errors";
import { MarkedError } from "@/lib/context/light";

/** The recorder's own refusals, beside lib/api's codes. */
export type RecorderErrorCode = "upstream_not_configured" | "tool_results_mismatch" | "nothing_to_answer" | "chat_in_progress";

/** A chat request the recorder refuses before anything is written; answered as `{ error: { code, message, issues? } }`. */
export class RecorderError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.recorder.error");
  readonly status: number;
  readonly code: RecorderErrorCode;
  readonly issues?: ApiIssue[];

  constructor(status: number, code: RecorderErrorCode, message: string, issues?: ApiIssue[]) {
    super(message);
    this.name = "RecorderError";
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export const NOT_CONFIGURED_MESSAGE =
  "no upstream model is configured: save a base URL (and API key) in the recorder's upstream settings, i.e. PUT /api/settings/upstream " +
  "{ baseUrl, apiKey }, or start the server with CONTEXT_LAB_UPSTREAM_BASE_URL and CONTEXT_LAB_UPSTREAM_API_KEY; nothing was recorded";

/** The JSON error for anything the chat route threw: the recorder's codes here, the rest through lib/api's mapping. */
export function recorderErrorResponse(error: unknown): Response {
  if (!RecorderError.isInstance(error)) return errorResponse(error);
  const body = { error: { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
  return Response.json(body, { status: error.status });
}
