import type http from "node:http";
import { Readable } from "node:stream";

/**
 * The one adapter between Node's HTTP objects and the web `Request` and
 * `Response` the handlers speak (SV-3): the request's body streams in as the
 * client sends it, its signal aborts when the client goes away, and the
 * response's body is written chunk by chunk as the handler produces it.
 */

/** A handler as the server and Next's route files call it. */
export type WebHandler = (request: Request) => Response | Promise<Response>;

/** The request's headers as one `Headers` (repeated ones joined as `fetch` does). */
export function headersOf(incoming: http.IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) headers.append(raw[index], raw[index + 1]);
  return headers;
}

/** The URL the request names, against the origin its `Host` says (the guard judges that name), else the server's own. */
function urlOf(incoming: http.IncomingMessage, fallbackOrigin: string): URL {
  const target = incoming.url ?? "/";
  try {
    return new URL(target, `http://${incoming.headers.host ?? ""}`);
  } catch {
    return new URL(target, fallbackOrigin);
  }
}

/**
 * A web `Request` for a Node request. The body is not read here: the handler
 * (and the guard before it, SEC-6) decides whether to read it at all. The
 * signal aborts when the connection closes before the answer was sent (SV-5).
 */
export function webRequestOf(incoming: http.IncomingMessage, outgoing: http.ServerResponse, fallbackOrigin: string): Request {
  const aborter = new AbortController();
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) aborter.abort();
  });
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(urlOf(incoming, fallbackOrigin), {
    method,
    headers: headersOf(incoming),
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    signal: aborter.signal,
    // A streamed request body must say so (fetch's half-duplex rule).
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** The response's headers for `writeHead`, each `Set-Cookie` kept apart, `extra` appended (SV-6: the server's `Server-Timing`). */
function nodeHeadersOf(response: Response, extra: Record<string, string>): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  for (const [name, value] of Object.entries(extra)) headers[name] = headers[name] ? `${headers[name]}, ${value}` : value;
  return headers;
}

function drained(outgoing: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}

/**
 * Writes a web `Response` to Node (SV-4): headers at once (with the body
 * when it is already there), then each chunk of the body as the handler
 * enqueues it, the same bytes, no copy and no buffering beyond the socket's
 * own (waiting for it to drain). The client
 * going away cancels the body, which reaches whatever produces it (the
 * upstream's stream). A body that fails mid-way ends the connection without
 * the closing chunk, so the client sees a cut answer, not a complete one.
 */
export async function sendWebResponse(response: Response, outgoing: http.ServerResponse, extraHeaders: Record<string, string> = {}): Promise<void> {
  outgoing.writeHead(response.status, response.statusText || undefined, nodeHeadersOf(response, extraHeaders));
  if (!response.body || outgoing.req.method === "HEAD") {
    // A HEAD answer has GET's headers and no body (newer Node refuses one).
    void response.body?.cancel().catch(() => undefined);
    outgoing.end();
    return;
  }
  // The headers go out with the body's first bytes when those are at hand (a whole answer is one write), else at once:
  // checked once the promise jobs queued now have run (a tick queued from a microtask runs after them).
  let written = false;
  queueMicrotask(() =>
    process.nextTick(() => {
      if (!written && !outgoing.destroyed) outgoing.flushHeaders();
    }),
  );
  const reader = response.body.getReader();
  const cancel = () => {
    if (!outgoing.writableFinished) void reader.cancel().catch(() => undefined);
  };
  outgoing.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.destroyed) return;
      written = true;
      if (!outgoing.write(value)) await drained(outgoing);
    }
    outgoing.end();
  } catch {
    outgoing.destroy();
  } finally {
    outgoing.off("close", cancel);
  }
}
