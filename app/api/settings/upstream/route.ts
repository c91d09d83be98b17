import { json, readJsonBody, route, otherMethods } from "@/lib/api/http";
import { describeUpstream, saveUpstreamSettings } from "@/lib/upstream";
import { upstreamSettingsSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Where the proxy forwards: the base URL, whether a key is set and its last 4 characters, never the key. */
export const GET = route(async () => json(describeUpstream()));

export const PUT = route(async (request) => {
  const changes = await readJsonBody(request, upstreamSettingsSchema);
  return json(saveUpstreamSettings(changes));
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods("GET", "PUT");
