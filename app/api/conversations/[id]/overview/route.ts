import { database } from "@/lib/api/database";
import { json, otherMethods, readQuery, route } from "@/lib/api/http";
import { getSessionOverview } from "@/lib/api/session-overview";
import { overviewQuerySchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The conversation as an agent's session: origin, parent, subagents, compactions and reported usage (`?branch=` picks the branch, the root by default). */
export const GET = route<{ id: string }>(async (request, { id }) => {
  const { branch } = readQuery(request, overviewQuerySchema);
  return json(await getSessionOverview(database(), id, branch));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
