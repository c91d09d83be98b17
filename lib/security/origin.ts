/** Methods that change state: they need a JSON content type and, with an `Origin`, a same-origin one. */
export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * No request body may declare more bytes than this (32 MB): Next buffers each
 * body for the request guard and would cut a longer one short. Routes have
 * their own, smaller limits (imports 20 MB, JSON bodies 5 MB).
 */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** Content types a cross-site page cannot send without a CORS preflight (which this server never grants). */
export const JSON_CONTENT_TYPES: readonly string[] = ["application/json"];
/** JSONL uploads: only where the route reads a transcript. */
export const NDJSON_CONTENT_TYPE = "application/x-ndjson";
/** The routes that take JSON lines: transcript imports and session files. */
const NDJSON_PATHS = new Set(["/api/conversations/import", "/api/sessions"]);

/** `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/**
 * Whether `origin` is this server as the request addressed it: scheme-less
 * comparison of `host[:port]`, since the app is served over plain HTTP on
 * loopback and possibly behind a TLS proxy. `Origin: null` (a sandboxed frame,
 * a file) is never same-origin.
 */
export function isSameOrigin(origin: string, host: string | null): boolean {
  if (!host || origin === "null") return false;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return false;
  const defaultPort = parsed.protocol === "https:" ? "443" : "80";
  const expected = host.trim().toLowerCase();
  const withPort = `${parsed.hostname}:${parsed.port || defaultPort}`;
  return parsed.host === expected || withPort === expected;
}

/** Whether a request carries a body: a positive length or a chunked stream. */
export function hasBody(headers: Headers): boolean {
  const length = headers.get("content-length");
  if (headers.has("transfer-encoding")) return true;
  return length !== null && length.trim() !== "0";
}

/** Whether the media type is acceptable for a body sent to `pathname`. */
export function isAcceptedContentType(contentType: string | null, pathname: string): boolean {
  const media = mediaTypeOf(contentType);
  if (JSON_CONTENT_TYPES.includes(media)) return true;
  return media === NDJSON_CONTENT_TYPE && NDJSON_PATHS.has(pathname);
}
