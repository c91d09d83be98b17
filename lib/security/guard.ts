import { credentialOf, withoutToken } from "./access";
import { allowedHostsOf, isAllowedHost } from "./hosts";
import { findMalformedPath } from "./path";
import { hasBody, isAcceptedContentType, isSameOrigin, MAX_REQUEST_BYTES, mediaTypeOf, NDJSON_CONTENT_TYPE, STATE_CHANGING_METHODS } from "./origin";
import { REFUSAL_STATUS, refusalBodyOf, type RefusalCode } from "./refusal";

/**
 * The request guard: what every request must pass before a page, an API
 * route, a live stream or the recording proxy sees it. Pure, so each rule is
 * tested on its own; the root `proxy.ts` (Next's request hook, not our
 * recording proxy) only turns its decision into a response.
 */

/** What the guard enforces, read once from the environment. */
export interface SecurityConfig {
  /** `CONTEXT_LAB_TOKEN`: when set, every request must prove it knows it. */
  token: string | null;
  /** Names `Host` may carry (loopback plus `CONTEXT_LAB_ALLOWED_HOSTS`). */
  allowedHosts: string[];
}

export function securityConfigOf(env: Record<string, string | undefined>): SecurityConfig {
  const token = env.CONTEXT_LAB_TOKEN?.trim();
  return { token: token ? token : null, allowedHosts: allowedHostsOf(env.CONTEXT_LAB_ALLOWED_HOSTS) };
}

/** The parts of a request the guard reads. */
export interface GuardedRequest {
  method: string;
  /** Path and query as the client sent them (`/c/abc?branch=x`). */
  pathname: string;
  search: string;
  headers: Headers;
}

export type GuardDecision =
  | { action: "refuse"; status: number; code: RefusalCode; body: Record<string, unknown> }
  | { action: "login"; location: string }
  /** `requestHeaders` are the request's own when nothing was taken out of them, else a copy without the token. */
  | { action: "pass"; requestHeaders: Headers };

/** Reachable without the token: the login page and the route it posts to. */
const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/login", "/api/login"]);

function refuse(pathname: string, code: RefusalCode, message: string, details?: Record<string, number>): GuardDecision {
  return { action: "refuse", status: REFUSAL_STATUS[code], code, body: refusalBodyOf(pathname, code, message, details) };
}

function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

const RETURN_BASE = "http://context-lab.invalid";

/**
 * BD-7: where the login page sends the browser back to: a path of this app,
 * or `/`. Browsers drop tabs and line breaks from a URL and read `\` as `/`,
 * so `/%09/evil.example/` (decoded to a tab) would land on `//evil.example/`:
 * those characters are refused outright, and what is left must resolve to
 * this app's own origin.
 */
export function safeReturnPath(value: string | null): string {
  if (!value?.startsWith("/")) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\u0000-\u001F\u007F\\]/.test(value)) return "/";
  let url: URL;
  try {
    url = new URL(value, RETURN_BASE);
  } catch {
    return "/";
  }
  return url.origin === RETURN_BASE ? `${url.pathname}${url.search}${url.hash}` : "/";
}

/** A cross-site page loading our responses as a subresource (script, image, no-cors fetch): never a user's own navigation. */
function isCrossSiteSubresource(headers: Headers): boolean {
  const site = headers.get("sec-fetch-site");
  return (site === "cross-site" || site === "same-site") && headers.get("sec-fetch-mode") !== "navigate";
}

function checkOrigin(request: GuardedRequest): GuardDecision | null {
  const { headers, pathname, method } = request;
  const origin = headers.get("origin");
  const host = headers.get("host");
  if (origin !== null && !isSameOrigin(origin, host)) {
    return refuse(pathname, "forbidden_origin", `requests from ${origin} are refused: only pages served by this app may call it`);
  }
  if (isCrossSiteSubresource(headers) || (STATE_CHANGING_METHODS.has(method) && headers.get("sec-fetch-site") === "cross-site")) {
    return refuse(pathname, "forbidden_origin", "requests from another site are refused: only pages served by this app may call it");
  }
  return null;
}

function checkBody(request: GuardedRequest): GuardDecision | null {
  const { headers, pathname, method } = request;
  if (!STATE_CHANGING_METHODS.has(method) || !hasBody(headers)) return null;
  if (!headers.has("content-length")) {
    return refuse(pathname, "length_required", "a request body needs a Content-Length header (chunked uploads are not accepted)");
  }
  const declared = Number(headers.get("content-length"));
  if (!Number.isSafeInteger(declared) || declared < 0) return refuse(pathname, "length_required", "the Content-Length header is not a whole number of bytes");
  if (declared > MAX_REQUEST_BYTES) {
    return refuse(pathname, "payload_too_large", `the body is ${declared} bytes, over the ${MAX_REQUEST_BYTES}-byte limit of any request`, {
      bytes: declared,
      limit: MAX_REQUEST_BYTES,
    });
  }
  const contentType = headers.get("content-type");
  if (!isAcceptedContentType(contentType, pathname)) {
    const sent = mediaTypeOf(contentType) || "no content type";
    const expected = isAcceptedContentType(NDJSON_CONTENT_TYPE, pathname) ? "application/json or application/x-ndjson" : "application/json";
    return refuse(pathname, "unsupported_media_type", `the body was sent as ${sent}; send it as ${expected}`);
  }
  return null;
}

/** Decides one request: refuse it, send the browser to the login page, or let it through with the token removed from its headers. */
export function guardRequest(request: GuardedRequest, config: SecurityConfig): GuardDecision {
  const { headers, pathname } = request;
  const host = headers.get("host");
  if (!isAllowedHost(host, config.allowedHosts)) {
    const named = host ? `'${host}'` : "no Host header";
    return refuse(
      pathname,
      "forbidden_host",
      `requests addressed to ${named} are refused; allowed names: ${config.allowedHosts.join(", ")} (add one with CONTEXT_LAB_ALLOWED_HOSTS)`,
    );
  }
  const malformed = findMalformedPath(pathname);
  // The path is not echoed: it is what could not be read.
  if (malformed) return refuse(pathname, "invalid_path", `the request's path cannot be read: ${malformed}`);
  const refused = checkOrigin(request) ?? checkBody(request);
  if (refused) return refused;
  if (config.token === null) return { action: "pass", requestHeaders: headers };
  if (credentialOf(headers, config.token) === null && !PUBLIC_PATHS.has(pathname)) {
    if (!isApiPath(pathname)) return { action: "login", location: `/login?next=${encodeURIComponent(pathname + request.search)}` };
    return refuse(
      pathname,
      "unauthorized",
      "this Context Lab needs its access token: send Authorization: Bearer <token> (agents: the token as API key, or X-Context-Lab-Token)",
    );
  }
  return { action: "pass", requestHeaders: withoutToken(headers, config.token) };
}
