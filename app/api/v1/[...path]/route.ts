import { unservedProxyRoute } from "@/lib/proxy";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// Any /api/v1 path the proxy does not serve: a JSON 404 in the agent's protocol's error shape, naming what is served.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unservedProxyRoute();
