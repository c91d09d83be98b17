import { NextResponse, type NextRequest } from "next/server";
import { guardRequest, securityConfigOf } from "@/lib/security/guard";
import { contentSecurityPolicyOf, createNonce, secured } from "@/lib/security/headers";

// Next 16's request hook (formerly middleware), not the recording proxy in lib/proxy:
// every request Next serves passes the request guard (lib/security/guard.ts) here first; the
// app server's own routes (lib/server) pass it in the route (lib/security/route-guard.ts).
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
  // Built assets and the site's icon are public and carry no data. The recording proxy (/api/v1/...) and the
  // live streams never reach Next: the app server answers them (lib/server, SV-2), and refuses a path it
  // cannot read before Next sees it (BD-1).
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
