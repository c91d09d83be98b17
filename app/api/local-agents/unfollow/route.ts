import { json, otherMethods, readJsonBody, route } from "@/lib/api/http";
import { requireLocalAgents, unfollowLocalSession } from "@/lib/local-agents/service";
import { unfollowBodySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Stops following a file, or a conversation's file (the same as DELETE /api/local-agents/follow). */
export const POST = route(async (request) => {
  requireLocalAgents();
  return json({ stopped: unfollowLocalSession(await readJsonBody(request, unfollowBodySchema)) });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
