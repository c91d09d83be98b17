/** Why the request guard refused a request. */
export type RefusalCode =
  | "invalid_path"
  | "forbidden_host"
  | "forbidden_origin"
  | "unsupported_media_type"
  | "length_required"
  | "payload_too_large"
  | "unauthorized";

/** Status of each refusal. */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = {
  invalid_path: 400,
  forbidden_host: 403,
  forbidden_origin: 403,
  unsupported_media_type: 415,
  length_required: 411,
  payload_too_large: 413,
  unauthorized: 401,
};

const ANTHROPIC_TYPES: Readonly<Record<RefusalCode, string>> = {
  invalid_path: "invalid_request_error",
  forbidden_host: "permission_error",
  forbidden_origin: "permission_error",
  unsupported_media_type: "invalid_request_error",
  length_required: "invalid_request_error",
  payload_too_large: "request_too_large",
  unauthorized: "authentication_error",
};

/** Anthropic's Messages API lives under the proxy at `/api/v1/messages`. */
function isAnthropicPath(pathname: string): boolean {
  return pathname === "/api/v1/messages" || pathname.startsWith("/api/v1/messages/");
}

/**
 * The JSON body of a refusal. App routes get the API's one error shape
 * (`{ error: { code, message } }`); the recording proxy's routes get their
 * protocol's shape so agents' clients surface the message: OpenAI's adds
 * `type` and `param` to the same object, Anthropic's is `{ type: "error",
 * error: { type, message } }`. `details` (a body's `bytes` and `limit`) join
 * the error object.
 */
export function refusalBodyOf(pathname: string, code: RefusalCode, message: string, details: Record<string, number> = {}): Record<string, unknown> {
  if (isAnthropicPath(pathname)) return { type: "error", error: { type: ANTHROPIC_TYPES[code], message, ...details } };
  if (pathname.startsWith("/api/v1/")) {
    const type = code === "unauthorized" ? "authentication_error" : "invalid_request_error";
    return { error: { code, message, type, param: null, ...details } };
  }
  return { error: { code, message, ...details } };
}
