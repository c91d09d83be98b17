import os from "node:os";
import path from "node:path";

/** The environment a command reads; `process.env` in use, a plain object in tests. */
export type Environment = Record<string, string | undefined>;

/** Where the app keeps its data, and which database it opens (PK-3). */
export interface DataPlace {
  /** `CONTEXT_LAB_HOME`, else `~/.context-lab`. */
  home: string;
  /** `DATABASE_URL` (a relative `file:` path made absolute against the working directory), else SQLite in `home`. */
  databaseUrl: string;
  /** For people: the SQLite file, or the PostgreSQL host and database without credentials. */
  databaseDescription: string;
  /** The upstream settings the settings page saves (`CONTEXT_LAB_UPSTREAM_SETTINGS_FILE`, else in `home`). */
  settingsFile: string;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Resolves PK3's data folder and database from the environment and the working directory. */
export function resolveDataPlace(env: Environment, cwd: string): DataPlace {
  const home = path.resolve(cwd, env.CONTEXT_LAB_HOME?.trim() || path.join(os.homedir(), ".context-lab"));
  const settingsFile = path.resolve(cwd, env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE?.trim() || path.join(home, "upstream.json"));
  const given = env.DATABASE_URL?.trim();
  if (given && isPostgresUrl(given)) {
    const url = new URL(given);
    return { home, settingsFile, databaseUrl: given, databaseDescription: `PostgreSQL ${url.hostname}:${url.port || "5432"}${url.pathname}` };
  }
  const file = given ? sqliteFileOf(given, cwd) : path.join(home, "context-lab.db");
  return { home, settingsFile, databaseUrl: `file:${file}`, databaseDescription: `SQLite ${file}` };
}

/** `file:./x.db`, `file:///abs/x.db` or a bare path → an absolute file path. */
function sqliteFileOf(url: string, cwd: string): string {
  const location = url.replace(/^file:(\/\/(?=\/))?/, "").replace(/\?.*$/, "");
  return path.resolve(cwd, location);
}
