import { database } from "@/lib/api/database";
import { json, otherMethods, readJsonBody, route } from "@/lib/api/http";
import { importLocalSession, requireLocalAgents } from "@/lib/local-agents/service";
import { importLocalSessionSchema } from "./schema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Imports one listed session file through the import service (LA4). */
export const POST = route(async (request) => {
  requireLocalAgents();
  const { path } = await readJsonBody(request, importLocalSessionSchema);
  return json(await importLocalSession(database(), path), 201);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
