import "server-only";
import http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { type GuardDecision, guardRequest, securityConfigOf } from "@/lib/security/guard";
import { DATA_CONTENT_SECURITY_POLICY, secured } from "@/lib/security/headers";
import { findMalformedPath } from "@/lib/security/path";
import { headersOf, sendWebResponse, webRequestOf } from "./node-web";
import { answerPlainRoute, plainRouteOf } from "./routes";

export interface ContextLabServerOptions {
  /** Next's development mode (`npm run dev`) instead of the production build. */
  dev: boolean;
  /** The project: where `next.config.mjs` and the build are. */
  dir: string;
  hostname: string;
  port: number;
}

export interface ContextLabServer {
  /** `http://<hostname>:<port>` as bound. */
  url: string;
  close(): Promise<void>;
}

function pathnameOf(target: string): string {
  const query = target.indexOf("?");
  return query === -1 ? target : target.slice(0, query);
}

/** The guard's refusal of a path it cannot read, with the data headers (SEC-5). */
function refusalOf(decision: GuardDecision): Response {
  // A path that cannot be read never passes the guard: its Host is refused first (SEC-1), else the path (BD-1).
  const [body, status] = decision.action === "refuse" ? [decision.body, decision.status] : [{ error: { code: "invalid_path" } }, 400];
  return secured(Response.json(body, { status }), DATA_CONTENT_SECURITY_POLICY);
}

/**
 * Starts Context Lab: one Node HTTP server that owns the port (SV-1). The
 * recording proxy and the live streams are answered here by plain handlers
 * (SV-2); every other request goes to Next's request handler. A path that
 * cannot be read is refused before either sees it (BD-1, SV-7).
 */
export async function startContextLabServer(options: ContextLabServerOptions): Promise<ContextLabServer> {
  const security = securityConfigOf(process.env);
  const server = http.createServer();
  const app = next({ dev: options.dev, dir: options.dir, hostname: options.hostname, port: options.port, httpServer: server });
  await app.prepare();
  const handleWithNext = app.getRequestHandler();
  const origin = `http://${options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname}:${options.port}`;

  const answer = async (incoming: http.IncomingMessage, outgoing: http.ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = incoming.method ?? "GET";
    const target = incoming.url ?? "/";
    const pathname = pathnameOf(target);
    if (findMalformedPath(pathname) !== null) {
      return sendWebResponse(refusalOf(guardRequest({ method, pathname, search: "", headers: headersOf(incoming) }, security)), outgoing);
    }
    const route = plainRouteOf(pathname);
    if (route === null) return handleWithNext(incoming, outgoing);
    const response = await answerPlainRoute(route, webRequestOf(incoming, outgoing, origin));
    // SV-6: what the server spent on the request up to the answer's headers, the route's own time included.
    await sendWebResponse(response, outgoing, { "server-timing": `server;dur=${(performance.now() - started).toFixed(2)}` });
  };

  server.on("request", (incoming: http.IncomingMessage, outgoing: http.ServerResponse) => {
    answer(incoming, outgoing).catch((error: unknown) => {
      console.error(`context-lab: ${incoming.method} ${incoming.url} failed`, error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "application/json" });
      outgoing.end(JSON.stringify({ error: { code: "internal_error", message: "the server failed to answer; see its log" } }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await closed;
      await app.close();
    },
  };
}
