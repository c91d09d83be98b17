import type { JsonValue } from "@/lib/db";
import type { AgentIdentity } from "@/lib/proxy/identify";
import type { UpstreamConfig } from "./settings";

/** Request headers never forwarded: hop-by-hop, the agent's credentials and cookies, Context Lab's own, and what the HTTP client sets itself. */
const DROPPED_REQUEST_HEADERS = new Set([
  "authorization",
  "connection",
  "content-length",
  "cookie",
  "expect",
  "forwarded",
  "host",
  "keep-alive",
  "origin",
  "proxy-authorization",
  "referer",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  // The client decodes a compressed body, which would leave a stale content-encoding on the passthrough; ask for identity.
  "accept-encoding",
]);
const DROPPED_REQUEST_PREFIXES = ["x-context-lab-", "x-forwarded-", "x-real-ip", "x-middleware-", "x-invoke-", "x-nextjs-", "next-"];

/** Response headers never passed back: hop-by-hop, and the encoding and length of a body the client already decoded (UP-1). */
const DROPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-encoding", "content-length", "set-cookie", "upgrade"]);

/** The headers sent upstream: the agent's own minus the dropped ones, with the configured key (or the agent's own real key). */
export function upstreamRequestHeaders(incoming: Headers, upstream: UpstreamConfig, identity: AgentIdentity): Headers {
  const headers = new Headers();
  incoming.forEach((value, name) => {
    if (DROPPED_REQUEST_HEADERS.has(name) || DROPPED_REQUEST_PREFIXES.some((prefix) => name.startsWith(prefix))) return;
    headers.set(name, value);
  });
  headers.set("content-type", "application/json");
  headers.set("accept-encoding", "identity");
  const key = upstream.apiKey ?? identity.agentApiKey;
  if (key) headers.set("authorization", `Bearer ${key}`);
  return headers;
}

/** The upstream's response headers as passed to the agent (retry-after, rate limits, request ids included). */
export function passthroughHeaders(upstream: Headers, eventStream = false): Headers {
  const headers = new Headers();
  upstream.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) headers.set(name, value);
  });
  if (eventStream) {
    // Compression or a buffering proxy would hold chunks back: the stream must reach the agent as it comes.
    headers.set("cache-control", "no-cache, no-transform");
    headers.set("x-accel-buffering", "no");
  } else {
    // The upstream's bytes as they came (P16): the server would otherwise compress a whole answer
    // before sending it, which costs the agent more time on loopback than it saves.
    headers.set("cache-control", [upstream.get("cache-control"), "no-transform"].filter(Boolean).join(", "));
  }
  return headers;
}

/** Why an upstream call was cut short by us rather than by the network. */
export class AbortReason extends Error {
  constructor(
    readonly kind: "timeout" | "client",
    message: string,
  ) {
    super(message);
    this.name = kind === "timeout" ? "UpstreamTimeout" : "ClientClosedRequest";
  }
}

/**
 * An abort controller for one upstream call: aborts when the agent goes
 * away, or when `timeoutMs` pass without progress (`touch()` on each chunk
 * restarts the clock). `dispose()` when the call is over.
 */
export class CallWatch {
  readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onClientAbort = () => this.controller.abort(new AbortReason("client", "the agent closed the connection"));

  constructor(
    private readonly clientSignal: AbortSignal,
    private readonly timeoutMs: number,
  ) {
    if (clientSignal.aborted) this.onClientAbort();
    else clientSignal.addEventListener("abort", this.onClientAbort, { once: true });
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The reason the call was aborted by us, or null. */
  get reason(): AbortReason | null {
    const reason: unknown = this.controller.signal.reason;
    return this.controller.signal.aborted && reason instanceof AbortReason ? reason : null;
  }

  touch(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.controller.abort(new AbortReason("timeout", `the upstream sent nothing for ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.clientSignal.removeEventListener("abort", this.onClientAbort);
  }
}

/** `connect ECONNREFUSED 127.0.0.1:9` and its code: Node's network error, or the one a wrapping error (fetch's) has as its cause. */
export function networkErrorOf(error: unknown): { message: string; code: string | null } {
  const wrapped = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const source = (typeof wrapped?.message === "string" && wrapped.message !== "" ? wrapped : error) as { code?: unknown; message?: unknown } | null;
  const code = typeof source?.code === "string" ? source.code : null;
  const message = typeof source?.message === "string" && source.message !== "" ? source.message : String(error);
  return { message, code };
}

/** Headers kept with an upstream error: they say when to retry and which request it was. */
export const EXPLAINING_HEADERS: readonly string[] = [
  "retry-after",
  "retry-after-ms",
  "x-request-id",
  "x-ratelimit-remaining-requests",
  "x-ratelimit-reset-requests",
  "x-ratelimit-remaining-tokens",
  "x-ratelimit-reset-tokens",
];

/** An upstream body as JSON when it is JSON, else the text as it came. */
export function parseMaybeJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/** An upstream HTTP error as the proxy and the recorder record it: status, the error object's fields, the explaining headers. */
export interface UpstreamErrorDescription {
  source: "upstream";
  status: number;
  type: string;
  code: string | null;
  message: string;
  headers: Record<string, string>;
}

export function describeUpstreamError(status: number, body: JsonValue, headers: Headers): UpstreamErrorDescription {
  const inner =
    typeof body === "object" && body !== null && !Array.isArray(body) && typeof body.error === "object" && body.error !== null && !Array.isArray(body.error)
      ? body.error
      : null;
  const kept: Record<string, string> = {};
  for (const name of EXPLAINING_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept[name] = value;
  }
  return {
    source: "upstream",
    status,
    type: typeof inner?.type === "string" ? inner.type : "upstream_error",
    code: typeof inner?.code === "string" ? inner.code : null,
    message:
      typeof inner?.message === "string" ? inner.message : typeof body === "string" && body !== "" ? body.slice(0, 1_000) : `the upstream answered ${status}`,
    headers: kept,
  };
}
