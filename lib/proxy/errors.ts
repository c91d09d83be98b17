import { HttpError } from "@/lib/api/errors";
import { ContextError } from "@/lib/context";
import { DatabaseUnavailableError } from "@/lib/db/errors";
import { MarkedError } from "@/lib/context/light";

/**
 * Errors the proxy answers itself, in OpenAI's error format so agents' SDKs
 * raise their usual exceptions. Upstream errors never come through here:
 * they are passed through as the upstream sent them.
 */
export interface OpenAIErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null } & Record<string, unknown>;
}

export interface OpenAIErrorOptions {
  code?: string | null;
  param?: string | null;
  headers?: Record<string, string>;
  /** Extra fields of the error object (`budget`, `tokens`). */
  details?: Record<string, unknown>;
}

export function openAIErrorBody(type: string, message: string, options: OpenAIErrorOptions = {}): OpenAIErrorBody {
  return { error: { message, type, param: options.param ?? null, code: options.code ?? null, ...options.details } };
}

export function openAIErrorResponse(status: number, type: string, message: string, options: OpenAIErrorOptions = {}): Response {
  return Response.json(openAIErrorBody(type, message, options), { status, headers: options.headers });
}

/** The agent's request cannot be read as a chat completion request (400, `invalid_request_error`). */
export class ProxyRequestError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.proxy.error.request");
  /** The request field at fault: `messages[3].role`. */
  readonly param: string | null;

  constructor(message: string, param: string | null = null) {
    super(message);
    this.name = "ProxyRequestError";
    this.param = param;
  }
}

/** The status and OpenAI error body for something the proxy itself failed at; unexpected errors are logged. */
export function describeProxyError(error: unknown): { status: number; body: OpenAIErrorBody } {
  if (HttpError.isInstance(error)) {
    // The body reader's refusals: 413 past the size limit, 400 for text that is not UTF-8.
    return { status: error.status, body: openAIErrorBody("invalid_request_error", error.message, { code: error.code, details: error.details }) };
  }
  if (ProxyRequestError.isInstance(error)) {
    return { status: 400, body: openAIErrorBody("invalid_request_error", error.message, { param: error.param, code: "invalid_request" }) };
  }
  if (DatabaseUnavailableError.isInstance(error)) {
    return {
      status: 503,
      body: openAIErrorBody("context_lab_unavailable", `Context Lab cannot record this call: ${error.message}`, { code: "database_unavailable" }),
    };
  }
  if (ContextError.isInstance(error)) {
    return {
      status: 422,
      body: openAIErrorBody("context_pipeline_error", `the context pipeline failed on this request: ${error.message}`, { code: "context_pipeline_error" }),
    };
  }
  console.error("[proxy] unexpected error:", error);
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    body: openAIErrorBody("context_lab_error", `Context Lab failed on this request: ${detail} (see the server log)`, { code: "internal_error" }),
  };
}

/** The proxy's own failure as its OpenAI-shaped JSON response. */
export function proxyErrorResponse(error: unknown): Response {
  const { status, body } = describeProxyError(error);
  return Response.json(body, { status });
}
