import { unsupportedEndpoint } from "@/lib/proxy";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Any /api/v1 path the proxy does not serve: a JSON 404 in the agent's protocol's error shape, naming what is served.
function unsupported(request: Request): Response {
  return unsupportedEndpoint(request);
}

export const GET = unsupported;
export const POST = unsupported;
export const PUT = unsupported;
export const PATCH = unsupported;
export const DELETE = unsupported;
