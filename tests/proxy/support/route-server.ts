import http from "node:http";
import { sendWebResponse, webRequestOf } from "@/lib/server/node-web";
import { listenOnLoopback } from "@/tests/support/loopback";

/**
 * A small Node HTTP server that runs the app's real route handlers in the
 * test's own process, through the app server's one Node↔web adapter
 * (lib/server/node-web.ts): a web `Request` (its signal aborted when the
 * client goes away), the handler's `Response` body written chunk by chunk as
 * it comes, and an errored body ending the connection abruptly.
 */

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

export interface Route {
  /** `*` for every method. */
  method: string;
  /** `/api/live/conversations/:id`; a last segment `*` matches any rest (`/api/v1/*`). */
  path: string;
  handler: RouteHandler;
}

export interface RouteServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

function match(pattern: string, path: string): Record<string, string> | null {
  const expected = pattern.split("/");
  const actual = path.split("/");
  if (expected.at(-1) === "*")
    return actual.length >= expected.length && match(expected.slice(0, -1).join("/"), actual.slice(0, expected.length - 1).join("/")) ? {} : null;
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < expected.length; index += 1) {
    if (expected[index].startsWith(":")) params[expected[index].slice(1)] = decodeURIComponent(actual[index]);
    else if (expected[index] !== actual[index]) return null;
  }
  return params;
}

export async function startRouteServer(routes: Route[]): Promise<RouteServer> {
  const server = http.createServer(async (incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", `http://${incoming.headers.host ?? "127.0.0.1"}`);
    const found = routes
      .map((route) => ({ route, params: route.method === incoming.method || route.method === "*" ? match(route.path, url.pathname) : null }))
      .find((candidate) => candidate.params !== null);
    if (!found) {
      outgoing.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${url.pathname}` } }));
      return;
    }
    const request = webRequestOf(incoming, outgoing, "http://127.0.0.1");
    try {
      const response = await found.route.handler(request, { params: Promise.resolve(found.params ?? {}) });
      await sendWebResponse(response, outgoing);
    } catch (error) {
      console.error("route-server: the handler threw", error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(String(error));
    }
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, close };
}
