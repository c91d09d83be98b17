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
  const { pathname } = new URL(request.url);
  const anthropic = request.headers.has("anthropic-version") || request.headers.has("x-api-key");
  const message = `${request.method} ${pathname} is not served by Context Lab's recording proxy; it serves ${PROXY_ENDPOINTS.join(", ")}`;
  const body = openAIErrorBody("invalid_request_error", message, { code: "unknown_endpoint" });
  return errorResponseIn(anthropic ? "anthropic" : "openai", 404, body);
}
