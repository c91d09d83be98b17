import { database } from "@/lib/api/database";
import { json, otherMethods, readJsonBody, readQuery, route } from "@/lib/api/http";
import { allFollows } from "@/lib/local-agents/follow";
import { followLocalSession, followOf, requireLocalAgents, unfollowLocalSession } from "@/lib/local-agents/service";
import { followBodySchema, followQuerySchema, unfollowBodySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `?conversation=<id>`: that conversation's follow or null; without it, every follow. */
export const GET = route(async (request) => {
  requireLocalAgents();
  const { conversation } = readQuery(request, followQuerySchema);
  if (conversation !== undefined) return json({ follow: followOf(conversation) });
  return json({ follows: allFollows() });
});

/** Imports a listed session file and follows it: every new line reaches its conversation (LA5). */
export const POST = route(async (request) => {
  requireLocalAgents();
  const { path } = await readJsonBody(request, followBodySchema);
  return json(await followLocalSession(database(), path), 201);
});

/** Stops following a file, or a conversation's file. */
export const DELETE = route(async (request) => {
  requireLocalAgents();
  return json({ stopped: unfollowLocalSession(await readJsonBody(request, unfollowBodySchema)) });
});

export const { PUT, PATCH, OPTIONS } = otherMethods("GET", "POST", "DELETE");
