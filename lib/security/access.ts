import { createHmac, timingSafeEqual } from "node:crypto";

/** The browser's session cookie: an HMAC of the access token, never the token itself. */
export const SESSION_COOKIE = "context-lab-session";
/** Agents and scripts may send the token in this header instead of as their API key. */
export const TOKEN_HEADER = "x-context-lab-token";
/** The recording proxy's label prefix: `ctxlab-<label>` names the conversation an agent records into. */
export const LABEL_KEY_PREFIX = "ctxlab-";
/**
 * Between a label and the token in one API key: `ctxlab-<label>~<token>`.
 * Labels containing `~` still work: the token is matched at the key's end.
 */
export const LABEL_TOKEN_SEPARATOR = "~";
/** Shorter tokens are refused at start: guessing one over HTTP must stay out of reach. */
export const MIN_TOKEN_LENGTH = 16;

const SESSION_PURPOSE = "context-lab browser session v1";

function equalText(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether `offered` is the access token (constant time). */
export function isAccessToken(offered: string, token: string): boolean {
  return equalText(offered, token);
}

/** The session cookie's value for a token: knowing it does not reveal the token. */
export function sessionValueOf(token: string): string {
  return createHmac("sha256", token).update(SESSION_PURPOSE).digest("base64url");
}

/** The `Set-Cookie` value that signs a browser in: HttpOnly, SameSite=Strict, the whole site. */
export function sessionCookieOf(token: string, secure: boolean): string {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Strict", "Max-Age=2592000", ...(secure ? ["Secure"] : [])];
  return `${SESSION_COOKIE}=${sessionValueOf(token)}; ${attributes.join("; ")}`;
}

/** The `Set-Cookie` value that signs a browser out. */
export function expiredSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

function cookieOf(headers: Headers, name: string): string | null {
  for (const part of (headers.get("cookie") ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

function bearerOf(headers: Headers): string | null {
  const match = /^Bearer\s+(.+)$/i.exec(headers.get("authorization")?.trim() ?? "");
  return match ? match[1].trim() : null;
}

/** How a request proved it knows the token, or null. */
export type Credential = "cookie" | "bearer" | "api-key" | "header";

/** A key that is the token itself, or `ctxlab-<label>~<token>`. */
function keyCarriesToken(key: string, token: string): boolean {
  if (equalText(key, token)) return true;
  const suffix = `${LABEL_TOKEN_SEPARATOR}${token}`;
  return key.startsWith(LABEL_KEY_PREFIX) && key.length > LABEL_KEY_PREFIX.length + suffix.length && equalText(key.slice(-suffix.length), suffix);
}

/** Which of the accepted places holds the access token, if any. */
export function credentialOf(headers: Headers, token: string): Credential | null {
  const cookie = cookieOf(headers, SESSION_COOKIE);
  if (cookie !== null && equalText(cookie, sessionValueOf(token))) return "cookie";
  const header = headers.get(TOKEN_HEADER);
  if (header !== null && equalText(header.trim(), token)) return "header";
  const bearer = bearerOf(headers);
  if (bearer !== null && keyCarriesToken(bearer, token)) return "bearer";
  const apiKey = headers.get("x-api-key");
  if (apiKey !== null && keyCarriesToken(apiKey.trim(), token)) return "api-key";
  return null;
}

/**
 * The request's headers with the access token taken out, so nothing behind
 * the guard (the recording proxy above all) can store, log or forward it:
 * `X-Context-Lab-Token` and the session cookie go, a key that is the token
 * goes, and `ctxlab-<label>~<token>` becomes `ctxlab-<label>`.
 */
export function withoutToken(headers: Headers, token: string): Headers {
  const cleaned = new Headers(headers);
  cleaned.delete(TOKEN_HEADER);
  const cookies = (headers.get("cookie") ?? "").split(";").filter((part) => part.split("=")[0].trim() !== SESSION_COOKIE && part.trim() !== "");
  if (cookies.length > 0) cleaned.set("cookie", cookies.join(";").trim());
  else cleaned.delete("cookie");
  const strip = (key: string): string | null => {
    if (equalText(key, token)) return null;
    const suffix = `${LABEL_TOKEN_SEPARATOR}${token}`;
    return keyCarriesToken(key, token) ? key.slice(0, -suffix.length) : key;
  };
  const bearer = bearerOf(headers);
  if (bearer !== null) {
    const kept = strip(bearer);
    if (kept === null) cleaned.delete("authorization");
    else cleaned.set("authorization", `Bearer ${kept}`);
  }
  const apiKey = headers.get("x-api-key");
  if (apiKey !== null) {
    const kept = strip(apiKey.trim());
    if (kept === null) cleaned.delete("x-api-key");
    else cleaned.set("x-api-key", kept);
  }
  return cleaned;
}
