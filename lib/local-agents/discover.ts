import "server-only";
import { promises as fs } from "node:fs";
import path from "node:path";
import { describeSessionEdges } from "./describe";
import { readEdges } from "./edges";
import { WALKS } from "./layout";
import { realRootOf, resolveSessionFile, type ResolvedSessionFile } from "./paths";
import { LIVE_WINDOW_MS, type AgentRoot, type LocalSession } from "./types";

export interface DiscoverOptions {
  /** The clock that decides which sessions are live. */
  now?: () => number;
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return (await fs.readdir(folder)).sort();
  } catch {
    return [];
  }
}

/** The paths a walk pattern (`projects/*\/*`) names under a folder, one directory level at a time. */
async function expand(folder: string, segments: readonly string[]): Promise<string[]> {
  if (segments.length === 0) return [folder];
  const [segment, ...rest] = segments;
  const names = segment === "*" ? await namesIn(folder) : [segment];
  const found: string[] = [];
  for (const name of names) found.push(...(await expand(path.join(folder, name), rest)));
  return found;
}

/** Claude Code names a project's folder by its cwd with every `/` (and `.`) turned into `-`: the cwd, as near as it can be told. */
export function decodeClaudeProject(folder: string): string {
  return folder.startsWith("-") ? folder.replace(/-/g, "/") : folder;
}

function projectOf(file: ResolvedSessionFile, cwd: string | null): string {
  if (cwd !== null) return cwd;
  const folder = file.place.projectFolder;
  if (folder === null) return "";
  return file.root.agent === "claude-code" ? decodeClaudeProject(folder) : folder;
}

const CACHE_KEY = Symbol.for("context-lab.local-agents.descriptions");
const globalForCache = globalThis as typeof globalThis & { [CACHE_KEY]?: Map<string, { stamp: string; session: LocalSession }> };

/** Describes one session file from its stats and the ends of its text; unchanged files are not read again. */
export async function describeSessionFile(file: ResolvedSessionFile, now: number): Promise<LocalSession> {
  globalForCache[CACHE_KEY] ??= new Map();
  const cache = globalForCache[CACHE_KEY];
  const stamp = `${file.stats.size}:${file.stats.mtimeMs}`;
  const cached = cache.get(file.path);
  const session = cached?.stamp === stamp ? cached.session : await readSessionFile(file);
  cache.set(file.path, { stamp, session });
  return { ...session, live: now - file.stats.mtimeMs < LIVE_WINDOW_MS };
}

async function readSessionFile(file: ResolvedSessionFile): Promise<LocalSession> {
  const edges = await readEdges(file.path, file.stats.size).catch(() => null);
  const facts = edges ? describeSessionEdges(file.root.agent, file.place, edges) : { sessionId: null, cwd: null, model: null, startedAt: null };
  const stem = path.basename(file.path).replace(/\.jsonl?$/, "");
  const modified = file.stats.mtime.getTime();
  return {
    agent: file.root.agent,
    kind: file.place.kind,
    path: file.path,
    relativePath: file.relativePath,
    sessionId: file.place.sessionId ?? facts.sessionId ?? stem,
    parentSessionId: file.place.parentSessionId,
    project: projectOf(file, facts.cwd),
    startedAt: facts.startedAt ?? new Date(Math.min(file.stats.birthtimeMs || modified, modified)).toISOString(),
    modifiedAt: file.stats.mtime.toISOString(),
    model: facts.model,
    bytes: file.stats.size,
    live: false,
  };
}

/** The session files of one agent's folder (LA1), each checked by the path rule (LA3). */
export async function discoverAgentSessions(root: AgentRoot, options: DiscoverOptions = {}): Promise<LocalSession[]> {
  const realRoot = await realRootOf(root);
  if (realRoot === null) return [];
  const now = (options.now ?? Date.now)();
  const seen = new Set<string>();
  const sessions: LocalSession[] = [];
  for (const walk of WALKS[root.agent]) {
    for (const candidate of await expand(realRoot, walk.split("/"))) {
      const file = await resolveSessionFile(root, realRoot, candidate);
      if (!file || seen.has(file.path)) continue;
      seen.add(file.path);
      sessions.push(await describeSessionFile(file, now));
    }
  }
  return sessions;
}

/** Every agent's sessions, most recently written first. */
export async function discoverSessions(roots: readonly AgentRoot[], options: DiscoverOptions = {}): Promise<LocalSession[]> {
  const found = (await Promise.all(roots.map((root) => discoverAgentSessions(root, options)))).flat();
  return found.sort((left, right) => right.modifiedAt.localeCompare(left.modifiedAt) || left.path.localeCompare(right.path));
}
