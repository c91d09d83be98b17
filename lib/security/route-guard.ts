import "server-only";
import { lineAndColumn } from "@/lib/api/http";
import { findExcessiveNesting } from "@/lib/api/json-input";
import { guardRequest, securityConfigOf, type SecurityConfig } from "./guard";
import { changeable, DATA_CONTENT_SECURITY_POLICY, secured } from "./headers";
import { STATE_CHANGING_METHODS } from "./origin";
import { REFUSAL_STATUS, refusalBodyOf } from "./refusal";

/** A route handler: a web request to its answer. */
export type RouteHandler = (request: Request) => Response | Promise<Response>;

const environmentConfig = securityConfigOf(process.env);

/**
 * The request guard run by a route itself, for the app server's own routes
 * (lib/server: the recording proxy's and the live streams), which never
 * reach Next's request hook (`proxy.ts`). Same decision, same refusal
 * bodies, same headers (SEC-1–SEC-6): a refused request never reaches the
 * handler, a passed one reaches it with the access token taken out of its
 * headers (SEC-4), and as it came when nothing was. A body nesting deeper than
 * any JSON input may (BD-3) is refused here too, in the protocol's shape:
 * the proxy's readers, recorder and pipeline walk what they parse.
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
    if (STATE_CHANGING_METHODS.has(request.method) && request.body !== null) {
      // A copy is read, so the route still gets the body as the agent sent it, byte for byte.
      const text = await passed.clone().text();
      const nesting = findExcessiveNesting(text);
      if (nesting) {
        const { line, column } = lineAndColumn(text, nesting.offset ?? 0);
        const body = refusalBodyOf(pathname, "invalid_json", `the body ${nesting.message} (line ${line}, column ${column})`);
        return secured(Response.json(body, { status: REFUSAL_STATUS.invalid_json }), DATA_CONTENT_SECURITY_POLICY);
      }
    }
    const answer = await handler(passed);
    return secured(changeable(answer), DATA_CONTENT_SECURITY_POLICY);
  };
}
