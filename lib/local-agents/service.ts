import "server-only";
import { HttpError } from "@/lib/api/errors";
import { findConversationBySessionKey, getConversationById, NotFoundError, type Database } from "@/lib/db";
import { localAgentsAccessOf } from "./access";
import { discoverSessions } from "./discover";
import { followOfConversation, followerOfPath, startFollowing, stopFollowing } from "./follow";
import { importSessionFile, type LocalImportResult } from "./import";
import { locateSessionFile } from "./paths";
import { forgetImport, importOfPath } from "./registry";
import { agentRootsOf } from "./roots";
import type { FollowStatus, LocalAgentsList, LocalSession, LocalSessionEntry } from "./types";

type Environment = Record<string, string | undefined>;

/** 403 unless the Local agents are offered on this server (LA2). */
export function requireLocalAgents(env: Environment = process.env): void {
  const access = localAgentsAccessOf(env);
  if (!access.enabled) throw new HttpError(403, "forbidden", access.message, { details: { reason: access.reason } });
}

/** The key the import service stores a session under (`<agent>:<session id>`, a subagent's id after a `/`). */
export function sessionKeyOfLocal(session: LocalSession): string {
  if (session.kind === "subagent" && session.parentSessionId !== null) {
    const agentId = session.path.replace(/^.*[\\/]agent-/, "").replace(/\.jsonl$/, "");
    return `${session.agent}:${session.parentSessionId}/${agentId}`;
  }
  return `${session.agent}:${session.sessionId}`;
}

/**
 * The conversation a session was imported as: the one the import service
 * stored under the session's key, else the one this process imported the
 * file as (formats whose files name no session), while it exists.
 */
async function conversationOf(db: Database, session: LocalSession): Promise<string | null> {
  const stored = await findConversationBySessionKey(db, sessionKeyOfLocal(session));
  if (stored) return stored.id;
  const id = importOfPath(session.path)?.conversationIds[0];
  if (id === undefined) return null;
  try {
    await getConversationById(db, id);
    return id;
  } catch (error) {
    if (!NotFoundError.isInstance(error)) throw error;
    forgetImport(session.path);
    return null;
  }
}

/** The sessions on this machine, each with the conversation it was imported as and whether it is followed. */
export async function listLocalSessions(db: Database, env: Environment = process.env): Promise<LocalAgentsList> {
  const roots = agentRootsOf(env);
  const found = await discoverSessions(roots);
  const sessions: LocalSessionEntry[] = [];
  for (const session of found) {
    sessions.push({ ...session, conversationId: await conversationOf(db, session), following: followerOfPath(session.path) !== null });
  }
  return { roots, sessions };
}

/** Imports the session file at `path` (only a file the discovery would list: LA3). */
export async function importLocalSession(db: Database, path: string, env: Environment = process.env): Promise<LocalImportResult> {
  const file = await locateSessionFile(agentRootsOf(env), path);
  return importSessionFile(db, file);
}

export interface FollowResult extends LocalImportResult {
  follow: FollowStatus;
}

/** Imports the session file at `path`, then re-imports it whenever it grows (LA5). */
export async function followLocalSession(db: Database, path: string, env: Environment = process.env): Promise<FollowResult> {
  const file = await locateSessionFile(agentRootsOf(env), path);
  const imported = await importSessionFile(db, file);
  const follow = startFollowing(file, imported.conversationIds[0], { importFile: (followed) => importSessionFile(db, followed) });
  return { ...imported, follow };
}

/** Stops following a file or a conversation; the follows stopped. */
export function unfollowLocalSession(target: { path?: string; conversationId?: string }): FollowStatus[] {
  return stopFollowing(target);
}

/** The follow of a conversation, or null. */
export function followOf(conversationId: string): FollowStatus | null {
  return followOfConversation(conversationId);
}
