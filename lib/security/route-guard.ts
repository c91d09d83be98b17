import "server-only";
import { guardRequest, securityConfigOf, type SecurityConfig } from "./guard";
import { changeable, DATA_CONTENT_SECURITY_POLICY, secured } from "./headers";

/** A route handler: a web request to its answer. */
export type RouteHandler = (request: Request) => Response | Promise<Response>;

const environmentConfig = securityConfigOf(process.env);

/**
 * The request guard run by a route itself, for the app server's own routes
 * (lib/server: the recording proxy's and the live streams), which never
 * reach Next's request hook (`proxy.ts`). Same decision, same refusal
 * bodies, same headers (SEC-1–SEC-6): a refused request never reaches the
 * handler, a passed one reaches it with the access token taken out of its
 * headers (SEC-4), and as it came when nothing was. The body is not read
 * here: the handler reads it once (BD-3's nesting check is on that read).
 * @example const POST = guardRoute(handleChatCompletions)
 */
export function guardRoute(handler: RouteHandler, config: SecurityConfig = environmentConfig): (request: Request) => Promise<Response> {
  return async (request) => {
    const { pathname, search } = new URL(request.url);
    const decision = guardRequest({ method: request.method, pathname, search, headers: request.headers }, config);
    if (decision.action === "refuse") return secured(Response.json(decision.body, { status: decision.status }), DATA_CONTENT_SECURITY_POLICY);
    if (decision.action === "login") {
      const location = new URL(decision.location, request.url).href;
      return secured(new Response(null, { status: 303, headers: { location } }), DATA_CONTENT_SECURITY_POLICY);
    }
    // When nothing was taken out of its headers, the request goes on as it came.
    const passed = decision.requestHeaders === request.headers ? request : new Request(request, { headers: decision.requestHeaders });
    const answer = await handler(passed);
    return secured(changeable(answer), DATA_CONTENT_SECURITY_POLICY);
  };
}
