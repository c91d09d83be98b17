import "server-only";
import { promises as fs, type Stats } from "node:fs";
import path from "node:path";
import { HttpError } from "@/lib/api/errors";
import { sessionPlaceOf, type SessionPlace } from "./layout";
import type { AgentRoot } from "./types";

/** Whether `child` is `parent` or lies under it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The agent's folder with its symbolic links resolved, or null when it does not exist. */
export async function realRootOf(root: AgentRoot): Promise<string | null> {
  try {
    return await fs.realpath(root.dir);
  } catch {
    return null;
  }
}

/** A session file that passed the path rule: its real path, where it is under the agent's folder, its stats. */
export interface ResolvedSessionFile {
  root: AgentRoot;
  path: string;
  relativePath: string;
  place: SessionPlace;
  stats: Stats;
}

/**
 * LA3: a file is a session file when its real path (every symbolic link
 * resolved) lies under the agent's real folder, where the agent's layout puts
 * sessions, and it is a regular file. A link that leads out of the folder is
 * not followed.
 */
export async function resolveSessionFile(root: AgentRoot, realRoot: string, candidate: string): Promise<ResolvedSessionFile | null> {
  let real: string;
  try {
    real = await fs.realpath(candidate);
  } catch {
    return null;
  }
  if (!isInside(realRoot, real)) return null;
  const relativePath = path.relative(realRoot, real).split(path.sep).join("/");
  const place = sessionPlaceOf(root.agent, relativePath);
  if (!place) return null;
  const stats = await fs.stat(real).catch(() => null);
  if (!stats?.isFile()) return null;
  return { root, path: real, relativePath, place, stats };
}

function refuse(message: string): HttpError {
  return new HttpError(400, "invalid_request", message, { issues: [{ path: "path", message }] });
}

/**
 * The session file a client named, or a 400 (not a session file under an
 * agent's folder) or 404 (no such file). A path outside every agent's folder
 * is refused before anything is read from the disk (LA3).
 */
export async function locateSessionFile(roots: readonly AgentRoot[], requested: string): Promise<ResolvedSessionFile> {
  if (!path.isAbsolute(requested)) throw refuse("path must be an absolute path to a session file the Local agents page lists");
  const wanted = path.resolve(requested);
  const realRoots = await Promise.all(roots.map(async (root) => ({ root, real: await realRootOf(root) })));
  const under = realRoots.filter(({ root, real }) => isInside(root.dir, wanted) || (real !== null && isInside(real, wanted)));
  if (under.length === 0) throw refuse(`${requested} is not in an agent's session folder (${roots.map((root) => root.dir).join(", ")})`);
  const exists = await fs.lstat(wanted).then(
    () => true,
    () => false,
  );
  if (!exists) throw new HttpError(404, "not_found", `${requested} does not exist (any more)`, { details: { resource: "session file", id: requested } });
  for (const { root, real } of under) {
    if (real === null) continue;
    const found = await resolveSessionFile(root, real, wanted);
    if (found) return found;
  }
  throw refuse(
    `${requested} is not a session file the Local agents page lists: it is not where the agent keeps sessions, or it leads out of the agent's folder`,
  );
}
