import type { Metadata } from "next";
import { connection } from "next/server";
import { getDatabase } from "@/lib/db";
import { localAgentsAccessOf } from "@/lib/local-agents/access";
import { listLocalSessions } from "@/lib/local-agents/service";
import { LocalAgentsOff, LocalAgentsPage } from "@/components/local-agents/local-agents-page";

export const metadata: Metadata = { title: "Local agents · Context Lab" };

/** `/agents`: the coding agents' sessions on this machine, offered only to a server this machine alone can reach (LA2). */
export default async function LocalAgents() {
  await connection();
  const access = localAgentsAccessOf(process.env);
  if (!access.enabled) return <LocalAgentsOff message={access.message} />;
  return <LocalAgentsPage initial={await listLocalSessions(getDatabase())} />;
}
