import "server-only";
import { LIVE_OTHER_METHODS, streamAllConversations, streamConversation } from "@/lib/live/routes";
import {
  handleChatCompletions,
  handleCountTokens,
  handleEmbeddings,
  handleMessages,
  handleModels,
  handleResponses,
  proxyRoute,
  type ProxyRouteHandlers,
  unservedProxyRoute,
} from "@/lib/proxy";
import { DATA_CONTENT_SECURITY_POLICY, secured } from "@/lib/security/headers";
import { guardRoute } from "@/lib/security/route-guard";
import type { WebHandler } from "./node-web";

/** One plain route: a handler per method, each behind the request guard. */
export type PlainRoute = ProxyRouteHandlers;

const PLAIN_METHODS: ReadonlySet<string> = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const PROXY_PREFIX = "/api/v1/";
const LIVE_ALL = "/api/live/conversations";
const LIVE_ONE_PREFIX = "/api/live/conversations/";

/** The recording proxy's routes by exact path (SV-2). */
const PROXY_ROUTES: ReadonlyMap<string, PlainRoute> = new Map([
  ["/api/v1/chat/completions", proxyRoute("POST", handleChatCompletions)],
  ["/api/v1/responses", proxyRoute("POST", handleResponses)],
  ["/api/v1/messages", proxyRoute("POST", handleMessages)],
  ["/api/v1/messages/count_tokens", proxyRoute("POST", handleCountTokens)],
  ["/api/v1/embeddings", proxyRoute("POST", handleEmbeddings)],
  ["/api/v1/models", proxyRoute("GET", handleModels)],
]);
const UNSERVED_PROXY_ROUTE = unservedProxyRoute();
/** The paths the recording proxy serves. */
export const PROXY_PATHS: readonly string[] = [...PROXY_ROUTES.keys()];

function liveRoute(get: WebHandler): PlainRoute {
  const other = (method: string) => guardRoute(LIVE_OTHER_METHODS[method]!);
  return {
    GET: guardRoute(get),
    POST: other("POST"),
    PUT: other("PUT"),
    PATCH: other("PATCH"),
    DELETE: other("DELETE"),
    OPTIONS: other("OPTIONS"),
  };
}

const LIVE_ALL_ROUTE = liveRoute(streamAllConversations);
// BD-2: the id is decoded once, here, as Next decodes a route's params.
const LIVE_ONE_ROUTE = liveRoute((request) => {
  const id = decodeURIComponent(new URL(request.url).pathname.slice(LIVE_ONE_PREFIX.length));
  return streamConversation(request, { params: Promise.resolve({ id }) });
});

/**
 * SV-2: the route the server answers itself for a path, or null when the path
 * is Next's. Every path under `/api/v1/` is the proxy's (a path it does not
 * serve answers P-E2's 404); the live streams are `/api/live/conversations`
 * and `/api/live/conversations/<id>`.
 */
export function plainRouteOf(pathname: string): PlainRoute | null {
  if (pathname.startsWith(PROXY_PREFIX)) return PROXY_ROUTES.get(pathname) ?? UNSERVED_PROXY_ROUTE;
  if (pathname === LIVE_ALL) return LIVE_ALL_ROUTE;
  if (pathname.startsWith(LIVE_ONE_PREFIX) && pathname.indexOf("/", LIVE_ONE_PREFIX.length) === -1 && pathname.length > LIVE_ONE_PREFIX.length)
    return LIVE_ONE_ROUTE;
  return null;
}

/**
 * A request to its plain route's handler for its method: HEAD as GET (as Next
 * does), a method no route has (TRACE, PROPFIND) a JSON 405.
 */
export async function answerPlainRoute(route: PlainRoute, request: Request): Promise<Response> {
  const method = request.method === "HEAD" ? "GET" : request.method;
  if (PLAIN_METHODS.has(method)) return route[method as keyof PlainRoute](request);
  const message = `${request.method} ${new URL(request.url).pathname} is not served: use ${Object.keys(route).join(", ")}`;
  return secured(Response.json({ error: { code: "method_not_allowed", message } }, { status: 405 }), DATA_CONTENT_SECURITY_POLICY);
}
