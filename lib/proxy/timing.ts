import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { changeable } from "@/lib/security/headers";
import type { RouteHandler } from "@/lib/security/route-guard";
import { requestUpstream, type UpstreamRequest } from "@/lib/upstream/request";

/** One proxied call's time waiting for the upstream, summed over its upstream calls (a reload loop makes several). */
interface CallTiming {
  upstreamMs: number;
}

const current = new AsyncLocalStorage<CallTiming>();

/**
 * Waits for something of the upstream's (its answer's headers, a whole
 * answer's body) and counts the wait as the upstream's in the call's
 * `Server-Timing` (P-T1). Outside a timed route it only waits.
 */
export async function awaitUpstream<T>(pending: Promise<T>): Promise<T> {
  const timing = current.getStore();
  if (!timing) return pending;
  const started = performance.now();
  try {
    return await pending;
  } finally {
    timing.upstreamMs += performance.now() - started;
  }
}

/** A request to the upstream (UP-1), its wait counted as the upstream's (P-T1). */
export function fetchUpstream(url: string, init: UpstreamRequest): Promise<Response> {
  return awaitUpstream(requestUpstream(url, init));
}

/**
 * P-T1: a proxy route's answer says where its time went, as `Server-Timing`:
 * `upstream` (waiting for the upstream) and `proxy` (everything else the
 * route did: reading the request, the lookup, the journal, the pipeline),
 * up to the answer's headers. What the server spends around the route
 * (routing, the request guard, sending the bytes) is in neither. An
 * upstream's own `Server-Timing` is kept ahead of these.
 * @example export const POST = guardRoute(timedRoute(handleChatCompletions))
 */
export function timedRoute(handler: RouteHandler): RouteHandler {
  return async (request) => {
    const timing: CallTiming = { upstreamMs: 0 };
    const started = performance.now();
    const response = changeable(await current.run(timing, () => handler(request)));
    const proxyMs = Math.max(0, performance.now() - started - timing.upstreamMs);
    response.headers.append("server-timing", `upstream;dur=${timing.upstreamMs.toFixed(2)}, proxy;dur=${proxyMs.toFixed(2)}`);
    return response;
  };
}
