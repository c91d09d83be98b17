import { spawn } from "node:child_process";
import os from "node:os";
import { type CliCommand, DEFAULT_PORT } from "./arguments";
import { migrateDatabase, spawnApp, waitForApp } from "./app-process";
import type { CliContext } from "./context";
import { resolveDataPlace } from "./home";
import { placeApp, resolveHost } from "./listen";

/** Opens `url` in the default browser; a failure only loses the convenience, the URL is printed anyway. */
function openBrowser(url: string): void {
  const [command, ...args] = process.platform === "darwin" ? ["open", url] : process.platform === "win32" ? ["cmd", "/c", "start", "", url] : ["xdg-open", url];
  const child = spawn(command, args, { stdio: "ignore", detached: true });
  child.on("error", () => {});
  child.unref();
}

/** `context-lab [--port N] [--open]`: migrate, start in the foreground, print the URL (PK-2–PK-6). */
export async function runStart(command: Extract<CliCommand, { kind: "start" }>, context: CliContext): Promise<number> {
  const { env, layout, print } = context;
  const place = resolveDataPlace(env, context.cwd);
  const host = resolveHost(env);
  const placement = await placeApp(host, command.port, env.CONTEXT_LAB_TOKEN, false);
  print(`Context Lab ${layout.version}`);
  print(`  data      ${place.home}`);
  print(`  database  ${place.databaseDescription}`);
  migrateDatabase(layout, place, env);
  print("  migrated  the database is up to date");
  const child = spawnApp(layout, place, env, { host, port: placement.port });
  const exited = new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? os.constants.signals[signal] : 0))));
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on("SIGINT", forward("SIGINT"));
  process.on("SIGTERM", forward("SIGTERM"));
  await waitForApp(placement.url, child, env.CONTEXT_LAB_TOKEN);
  print("");
  print(`  Context Lab is running at ${placement.url}`);
  print(`  Record an agent: npx context-lab record${placement.port === DEFAULT_PORT ? "" : ` --port ${placement.port}`} -- <command>`);
  print("  Press Ctrl+C to stop.");
  if (command.open) openBrowser(placement.url);
  return exited;
}
