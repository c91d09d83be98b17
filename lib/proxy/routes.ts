import "server-only";
import { guardRoute, type RouteHandler } from "@/lib/security/route-guard";
import { methodNotAllowed, unsupportedEndpoint } from "./protocols";
import { timedRoute } from "./timing";

/** A proxy route's handler per method (the app server answers HEAD with GET's). */
export interface ProxyRouteHandlers {
  GET: (request: Request) => Promise<Response>;
  POST: (request: Request) => Promise<Response>;
  PUT: (request: Request) => Promise<Response>;
  PATCH: (request: Request) => Promise<Response>;
  DELETE: (request: Request) => Promise<Response>;
  OPTIONS: (request: Request) => Promise<Response>;
}

/**
 * Every method of one proxy route (the app server's, lib/server/routes.ts),
 * each behind the request guard, which Next's request hook never sees: the
 * served method runs its handler, its answer saying where its time went
 * (P-T1), OPTIONS names it, any other answers 405 in the protocol's shape (P-E2).
 * @example const chat = proxyRoute("POST", handleChatCompletions)
 */
export function proxyRoute(method: "GET" | "POST", handler: RouteHandler): ProxyRouteHandlers {
  const allowed = method === "GET" ? "GET, HEAD" : method;
  const refused = guardRoute(methodNotAllowed(allowed));
  return {
    GET: refused,
    POST: refused,
    PUT: refused,
    PATCH: refused,
    DELETE: refused,
    [method]: guardRoute(timedRoute(handler)),
    OPTIONS: guardRoute(() => new Response(null, { status: 204, headers: { allow: `${allowed}, OPTIONS` } })),
  };
}

/** Every method of the catch-all under `/api/v1`: a 404 in the protocol's shape naming what is served (P-E2), behind the guard. */
export function unservedProxyRoute(): ProxyRouteHandlers {
  const unserved = guardRoute(unsupportedEndpoint);
  return { GET: unserved, POST: unserved, PUT: unserved, PATCH: unserved, DELETE: unserved, OPTIONS: unserved };
}
