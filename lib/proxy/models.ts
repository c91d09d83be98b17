import "server-only";
import { openAIErrorResponse } from "./errors";
import { CallWatch, networkErrorOf, passthroughHeaders, upstreamRequestHeaders } from "@/lib/upstream/forward";
import { identifyAgent } from "./identify";
import { awaitUpstream, fetchUpstream } from "./timing";
import { resolveUpstream } from "@/lib/upstream/settings";

/** `GET /v1/models`: the upstream's model list, passed through as it answered. Nothing is recorded. */
export async function handleModels(request: Request): Promise<Response> {
  const upstream = resolveUpstream();
  if (!upstream) {
    return openAIErrorResponse(503, "upstream_not_configured", "Context Lab has no upstream to list models from: set CONTEXT_LAB_UPSTREAM_BASE_URL", {
      code: "upstream_not_configured",
    });
  }
  const watch = new CallWatch(request.signal, upstream.timeoutMs);
  try {
    const headers = upstreamRequestHeaders(request.headers, upstream, identifyAgent(request.headers));
    headers.delete("content-type");
    const response = await fetchUpstream(`${upstream.baseUrl}/models`, { method: "GET", headers, signal: watch.signal });
    const text = await awaitUpstream(response.text());
    return new Response(text, { status: response.status, statusText: response.statusText, headers: passthroughHeaders(response.headers) });
  } catch (error) {
    if (watch.reason?.kind === "timeout") {
      return openAIErrorResponse(504, "upstream_timeout", `${upstream.baseUrl} did not answer in time: ${watch.reason.message}`, { code: "upstream_timeout" });
    }
    const network = networkErrorOf(error);
    return openAIErrorResponse(502, "upstream_unreachable", `cannot reach the upstream ${upstream.baseUrl}: ${network.message}`, {
      code: network.code ?? "upstream_unreachable",
    });
  } finally {
    watch.dispose();
  }
}
