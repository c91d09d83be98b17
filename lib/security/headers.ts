/** A fresh, unguessable nonce for one page's scripts. */
export function createNonce(): string {
  const bytes = new Uint8Array(18);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The Content-Security-Policy of every response. Scripts run only with this
 * request's nonce (Next reads it from the request's CSP header and stamps its
 * own scripts); styles may stay inline (React's `style` attributes); nothing
 * may frame the app or send a form elsewhere. Development adds `unsafe-eval`,
 * which React's dev build needs for its error overlays.
 */
export function contentSecurityPolicyOf(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The Content-Security-Policy of a response that is data, not a page: it may load nothing and be framed by nothing. */
export const DATA_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers every response carries, beside the CSP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  // Another site's page may not load these responses as images, scripts or media (no-cors reads).
  "cross-origin-resource-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};

/** Sets the Content-Security-Policy and the other security headers (SEC-5) on a response whose headers may be changed. */
export function secured<T extends Response>(response: T, policy: string): T {
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * The response itself when its headers may be changed, else the same body
 * under a copy of them: a redirect's or a fetched response's headers cannot
 * change. Copying only then saves every other answer a second Response.
 * The probe sets `X-Content-Type-Options`, which every answer carries (SEC-5).
 */
export function changeable(response: Response): Response {
  try {
    response.headers.set("x-content-type-options", SECURITY_HEADERS["x-content-type-options"]);
    return response;
  } catch {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}
