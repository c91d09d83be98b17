import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DataPlace, Environment } from "./home";
import { isPostgresUrl } from "./home";
import { serverBundleOf } from "@/lib/server/bundle";
import { type AppLayout, findPackageBin, PACKED_COMPACT_SCRIPT } from "./layout";
import { checkSqliteDriver } from "./native";
import { authorizationOf } from "./ports";

/** The environment the app and its migrations run with (PK-3): the data place, production, no telemetry. */
export function appEnvironment(layout: AppLayout, place: DataPlace, env: Environment, extra: Environment = {}): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {
    ...env,
    ...extra,
    DATABASE_URL: place.databaseUrl,
    CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: place.settingsFile,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  // The package's build is `.next` whatever the caller's shell says; a checkout may run another build.
  if (layout.packaged) delete result.NEXT_DIST_DIR;
  return result;
}

/** Fails with the command's output when it did not exit 0. */
function runOrFail(what: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): void {
  const result = spawnSync(command, args, { ...options, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (result.status === 0) return;
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim() || String(result.error ?? `exit ${result.status}`);
  throw new Error(`context-lab: ${what} failed:\n${output}`);
}

/**
 * Applies the committed migrations to the database (PK-5), as `npm run db migrate` does: Prisma's
 * `migrate deploy` on its WebAssembly engines, then the stored-request compaction (PX-D6.6).
 */
export function migrateDatabase(layout: AppLayout, place: DataPlace, env: Environment): void {
  const postgres = isPostgresUrl(place.databaseUrl);
  if (!postgres) {
    checkSqliteDriver(layout.root);
    fs.mkdirSync(path.dirname(place.databaseUrl.slice("file:".length)), { recursive: true });
  }
  const base = appEnvironment(layout, place, env);
  const migrateEnv: NodeJS.ProcessEnv = {
    ...base,
    PRISMA_TARGET: postgres ? "postgres" : "sqlite",
    // Prisma checks these two paths exist before it starts and never runs them on its WebAssembly engines;
    // any existing file keeps it from downloading native engines (README: Requirements).
    PRISMA_SCHEMA_ENGINE_BINARY: env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
    PRISMA_QUERY_ENGINE_LIBRARY: env.PRISMA_QUERY_ENGINE_LIBRARY || process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  };
  const schema = path.join(layout.root, "prisma", ...(postgres ? ["postgres"] : []), "schema.prisma");
  const prisma = findPackageBin("prisma", "prisma", layout.root);
  runOrFail("migrating the database", process.execPath, [prisma, "migrate", "deploy", "--schema", schema], { cwd: layout.root, env: migrateEnv });
  const compact = layout.packaged
    ? [path.join(layout.root, PACKED_COMPACT_SCRIPT)]
    : ["--conditions=react-server", "--import", "tsx", path.join(layout.root, "scripts", "compact-requests.ts")];
  runOrFail("compacting stored requests", process.execPath, compact, { cwd: layout.root, env: base });
}

export interface AppStartOptions {
  host: string;
  port: number;
  /** Keeps running after this command exits, its output in `logFile` (PK-8). */
  detached?: { logFile: string };
  /** Added to the app's environment (the upstream `record` hands it). */
  extraEnv?: Environment;
}

/** Starts the app's server (lib/server, SV-1) on its build. */
export function spawnApp(layout: AppLayout, place: DataPlace, env: Environment, options: AppStartOptions): ChildProcess {
  const childEnv = appEnvironment(layout, place, env, { ...options.extraEnv, HOST: options.host });
  const server = serverBundleOf(layout.root, childEnv.NEXT_DIST_DIR || ".next");
  const args = [server, "-H", options.host, "-p", String(options.port), "--dir", layout.root];
  // Its working directory: relative paths the app writes land in the data folder, which PostgreSQL users may not have yet.
  fs.mkdirSync(place.home, { recursive: true });
  if (!options.detached) return spawn(process.execPath, args, { cwd: place.home, env: childEnv, stdio: ["ignore", "inherit", "inherit"] });
  fs.mkdirSync(path.dirname(options.detached.logFile), { recursive: true });
  const log = fs.openSync(options.detached.logFile, "a");
  const child = spawn(process.execPath, args, { cwd: place.home, env: childEnv, stdio: ["ignore", log, log], detached: true });
  fs.closeSync(log);
  child.unref();
  return child;
}

/** Waits until the app answers `/api/health`; fails when it cannot start, exits first, or stays silent for `timeoutMs`. */
export async function waitForApp(url: string, child: ChildProcess, token: string | undefined, timeoutMs = 90_000): Promise<void> {
  let failure: string | null = null;
  child.once("error", (error) => (failure = `could not start the app: ${error.message}`));
  child.once("exit", (code, signal) => (failure = `the app exited (${code ?? signal}) before it answered at ${url}`));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (failure) throw new Error(`context-lab: ${failure}`);
    const answered = await fetch(`${url}/api/health`, { headers: authorizationOf(token), signal: AbortSignal.timeout(5_000) }).then(
      (response) => response.status < 500 || response.status === 503,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`context-lab: the app did not answer at ${url} within ${Math.round(timeoutMs / 1000)} s`);
}
