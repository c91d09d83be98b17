import { NextResponse, type NextRequest } from "next/server";
import { guardRequest, securityConfigOf } from "@/lib/security/guard";
import { contentSecurityPolicyOf, createNonce, secured } from "@/lib/security/headers";

// Next 16's request hook (formerly middleware), not the recording proxy in lib/proxy:
// every request passes the request guard (lib/security/guard.ts) first, here or, for the
// recording proxy's routes, in the route itself (lib/security/route-guard.ts).
const guardConfig = securityConfigOf(process.env);
const development = process.env.NODE_ENV === "development";

export function proxy(request: NextRequest): Response {
  const nonce = createNonce();
  const policy = contentSecurityPolicyOf(nonce, development);
  const decision = guardRequest(
    { method: request.method, pathname: request.nextUrl.pathname, search: request.nextUrl.search, headers: request.headers },
    guardConfig,
  );
  if (decision.action === "refuse") return secured(NextResponse.json(decision.body, { status: decision.status }), policy);
  if (decision.action === "login") return secured(NextResponse.redirect(new URL(decision.location, request.url), 303), policy);
  // Next stamps its own scripts with the nonce it reads from the request's CSP header.
  const requestHeaders = new Headers(decision.requestHeaders);
  requestHeaders.set("content-security-policy", policy);
  requestHeaders.set("x-nonce", nonce);
  return secured(NextResponse.next({ request: { headers: requestHeaders } }), policy);
}

export const config = {
  // Built assets and the site's icon are public and carry no data; the recording proxy's routes
  // (/api/v1/...) guard themselves (guardRoute), which spares every proxied call this hook's pass.
  // A proxy path holding a `%` still comes here (BD-1): Next would answer a broken escape in it with a
  // plain-text 500 before the route could refuse it.
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg|api/v1/).*)", "/api/v1/:path(.*%.*)"],
};
