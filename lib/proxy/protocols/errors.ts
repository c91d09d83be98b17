import type { Message, ToolDefinition } from "@/lib/context";
import type { JsonObject } from "@/lib/db";
import { FormatError } from "@/lib/formats";
import { ProxyRequestError, type OpenAIErrorBody } from "../errors";
import type { ReadRequest } from "./types";

/**
 * The two error shapes agents' SDKs parse (P-E1): OpenAI's
 * `{ error: { message, type, param, code } }` and Anthropic's
 * `{ type: "error", error: { type, message } }`. The proxy's own errors are
 * built as OpenAI bodies and rewritten for Anthropic, whose `type` is one of
 * its own, chosen by status.
 */
export type ErrorShape = "openai" | "anthropic";

const ANTHROPIC_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  405: "invalid_request_error",
  413: "request_too_large",
  422: "invalid_request_error",
  429: "rate_limit_error",
  529: "overloaded_error",
};

export interface AnthropicErrorBody {
  type: "error";
  error: { type: string; message: string };
}

/** The body of a proxy error in `shape`. */
export function errorBodyIn(shape: ErrorShape, status: number, body: OpenAIErrorBody): OpenAIErrorBody | AnthropicErrorBody {
  if (shape === "openai") return body;
  return { type: "error", error: { type: ANTHROPIC_TYPES[status] ?? "api_error", message: body.error.message } };
}

export function errorResponseIn(shape: ErrorShape, status: number, body: OpenAIErrorBody): Response {
  return Response.json(errorBodyIn(shape, status, body), { status });
}

/** A failure the proxy answers itself: the response, and the error recorded with it (the proxy's own type and code). */
export function ownErrorIn(shape: ErrorShape, status: number, body: OpenAIErrorBody, source: string): { response: Response; error: JsonObject } {
  const { message, type, code } = body.error;
  return { response: errorResponseIn(shape, status, body), error: { source, status, type, message, code } };
}

/** A reader's `FormatError` as the proxy's 400: every problem, the first one's path as `param`. */
export function requestErrorOf(error: unknown): unknown {
  if (!FormatError.isInstance(error)) return error;
  return new ProxyRequestError(error.message, error.path === "" ? null : error.path);
}

/** A protocol's request body read by its `lib/formats` reader; a `FormatError` becomes the proxy's 400 naming the field. */
export function readRequestWith(
  body: Record<string, unknown>,
  reader: (body: Record<string, unknown>) => { messages: Message[]; tools?: ToolDefinition[] },
): ReadRequest {
  let read: { messages: Message[]; tools?: ToolDefinition[] };
  try {
    read = reader(body);
  } catch (error) {
    throw requestErrorOf(error);
  }
  return { body, messages: read.messages, tools: read.tools ?? null, stream: body.stream === true };
}
