import { openAIErrorBody } from "../errors";
import { errorResponseIn } from "./errors";

/** What the proxy serves under `/api/v1`, as the catch-all names it. */
export const PROXY_ENDPOINTS: readonly string[] = [
  "POST /api/v1/chat/completions",
  "POST /api/v1/responses",
  "POST /api/v1/messages",
  "POST /api/v1/messages/count_tokens",
  "POST /api/v1/embeddings",
  "GET /api/v1/models",
];

/**
 * P-E2: any other path (or method) under `/api/v1` answers a 404 in the
 * protocol's own error shape naming what is served: Anthropic's when the
 * request carries `anthropic-version` or `x-api-key`, else OpenAI's. Never
 * Next's HTML page, which an SDK would report as an unreadable body.
 */
export function unsupportedEndpoint(request: Request): Response {
  const url = new URL(request.url);
  const message = `${request.method} ${url.pathname} is not served by Context Lab's recording proxy; it serves ${PROXY_ENDPOINTS.join(", ")}${baseUrlHint(url)}`;
  return errorResponseIn(shapeOf(request), 404, openAIErrorBody("invalid_request_error", message, { code: "unknown_endpoint" }));
}

/**
 * PX-E3: a path with `/v1` twice comes from a base URL that already ended in
 * `/v1` given to a client that appends its own (Anthropic's SDK, Claude
 * Code): the answer names the base URL each kind of client takes.
 */
function baseUrlHint(url: URL): string {
  if (!url.pathname.startsWith("/api/v1/v1/")) return "";
  return `. The base URL ends in /v1 and the client added /v1 again: Anthropic clients take ${url.origin}/api (ANTHROPIC_BASE_URL), OpenAI clients ${url.origin}/api/v1`;
}

function shapeOf(request: Request): "anthropic" | "openai" {
  return request.headers.has("anthropic-version") || request.headers.has("x-api-key") ? "anthropic" : "openai";
}

/** P-E2: a served path asked with another method: 405 in the protocol's shape, with `Allow`. */
export function methodNotAllowed(allowed: string): (request: Request) => Response {
  return (request) => {
    const message = `${request.method} ${new URL(request.url).pathname} is not served: use ${allowed}`;
    const response = errorResponseIn(shapeOf(request), 405, openAIErrorBody("invalid_request_error", message, { code: "method_not_allowed" }));
    response.headers.set("allow", allowed);
    return response;
  };
}
