import { database } from "@/lib/api/database";
import { json, otherMethods, route } from "@/lib/api/http";
import { listLocalSessions, requireLocalAgents } from "@/lib/local-agents/service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The session files of Claude Code, Codex and Gemini CLI on this machine (LA1), when this server is offered them (LA2). */
export const GET = route(async () => {
  requireLocalAgents();
  return json(await listLocalSessions(database()));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
