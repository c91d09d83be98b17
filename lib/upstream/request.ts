import "server-only";
import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import zlib from "node:zlib";

/** One request to an upstream: what the proxy sends. */
export interface UpstreamRequest {
  method: "GET" | "POST";
  headers: Headers;
  body?: string;
  signal: AbortSignal;
}

/** Each scheme's client, its connections kept open between calls as fetch keeps them. */
const CLIENTS = {
  "http:": { transport: http, agent: new http.Agent({ keepAlive: true }) },
  "https:": { transport: https, agent: new https.Agent({ keepAlive: true }) },
} as const;

/** Decoders for a body the upstream compressed although it was asked for `identity`. */
const DECODERS: Readonly<Partial<Record<string, () => NodeJS.ReadWriteStream>>> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/** Statuses whose answers have no body. */
const BODILESS = new Set([204, 205, 304]);

/**
 * UP-1: the proxy's second hop, on Node's HTTP client with kept-alive
 * connections, as a web `Response` whose body is the upstream's bytes as they
 * arrive. `fetch` (undici) costs several times as much per call on loopback
 * (its request and response objects, its body streams), and every proxied
 * call pays it. What it did that a proxy needs is done here: a compressed
 * body is decoded (its `content-encoding` is then dropped by
 * `passthroughHeaders`), and the signal aborts the request or, once
 * answered, its body. Redirects are not followed: the agent gets the
 * upstream's answer as it came. A connection that fails rejects with Node's
 * own error (`code` ECONNREFUSED, ECONNRESET...); a body cut after its
 * headers errors the body's stream.
 */
export function requestUpstream(url: string, init: UpstreamRequest): Promise<Response> {
  const target = new URL(url);
  const headers: Record<string, string> = {};
  init.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = init.body === undefined ? undefined : Buffer.from(init.body, "utf8");
  if (body) headers["content-length"] = String(body.length);
  return send({ target, method: init.method, headers, body, signal: init.signal }, true);
}

/** A request as `send` writes it: its target, headers and body prepared once, so sending it again sends the same bytes. */
interface Prepared {
  target: URL;
  method: UpstreamRequest["method"];
  headers: Record<string, string>;
  body: Buffer | undefined;
  signal: AbortSignal;
}

/**
 * UP-2: a kept-alive connection the upstream closed as idle just as the call
 * was sent on it fails with ECONNRESET before any answer: the upstream never
 * took the request, which is sent once more on a fresh connection. Any other
 * failure, or one on a new connection, is the call's.
 */
function isIdleClose(error: unknown, request: http.ClientRequest): boolean {
  return request.reusedSocket && (error as NodeJS.ErrnoException | null)?.code === "ECONNRESET";
}

function send(prepared: Prepared, retryIdleClose: boolean): Promise<Response> {
  const { target, method, headers, body, signal } = prepared;
  const { transport, agent } = target.protocol === "https:" ? CLIENTS["https:"] : CLIENTS["http:"];
  return new Promise((resolve, reject) => {
    const request = transport.request(target, { method, headers, agent, signal }, (response) => {
      const status = response.statusCode ?? 502;
      const answered = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) answered.append(name, item);
      }
      const decoder = DECODERS[(answered.get("content-encoding") ?? "").trim().toLowerCase()];
      const stream: Readable = decoder ? (response.pipe(decoder()) as unknown as Readable) : response;
      if (decoder) response.on("error", (error) => stream.destroy(error));
      const bodiless = BODILESS.has(status);
      if (bodiless) response.resume();
      resolve(
        new Response(bodiless ? null : (Readable.toWeb(stream) as ReadableStream<Uint8Array>), {
          status,
          statusText: response.statusMessage ?? "",
          headers: answered,
        }),
      );
    });
    request.on("error", (error) => {
      if (retryIdleClose && isIdleClose(error, request) && !signal.aborted) resolve(send(prepared, false));
      else reject(error);
    });
    request.end(body);
  });
}
