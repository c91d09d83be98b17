import "server-only";
import { describeProxyError } from "../errors";
import { CallWatch, passthroughHeaders } from "@/lib/upstream/forward";
import { identifyAgent } from "../identify";
import { awaitUpstream, fetchUpstream } from "../timing";
import type { UpstreamConfig } from "@/lib/upstream/settings";
import { errorResponseIn } from "./errors";
import { callFailure, notConfiguredBody, readAgentBody } from "../pipeline";
import type { Protocol } from "./types";

/**
 * P-P1: a call forwarded as it is and answered as the upstream answered,
 * with nothing recorded: `/v1/messages/count_tokens` counts a request that
 * was not made, `/v1/embeddings` is no conversation.
 */
export async function passThrough(protocol: Protocol, request: Request, url: (upstream: UpstreamConfig, search: string) => string): Promise<Response> {
  let upstream: UpstreamConfig | null;
  let body: string;
  try {
    upstream = protocol.upstream();
    body = await readAgentBody(request);
  } catch (error) {
    const failure = describeProxyError(error);
    return errorResponseIn(protocol.errorShape, failure.status, failure.body);
  }
  if (!upstream) return errorResponseIn(protocol.errorShape, 503, notConfiguredBody(protocol));
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  try {
    const response = await fetchUpstream(url(upstream, new URL(request.url).search), {
      method: "POST",
      headers: protocol.headers(request.headers, upstream, identifyAgent(request.headers)),
      body,
      signal: watch.signal,
    });
    const text = await awaitUpstream(response.text());
    return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
  } catch (error) {
    return callFailure(protocol, upstream, watch, error).response;
  } finally {
    watch.dispose();
  }
}
