import fs from "node:fs";
import path from "node:path";

/** The app `record` started in the background (PK-8), so `context-lab stop` can end it. */
export interface BackgroundApp {
  pid: number;
  url: string;
  log: string;
  startedAt: string;
}

export function backgroundFile(home: string): string {
  return path.join(home, "app.json");
}

export function writeBackgroundApp(home: string, app: BackgroundApp): void {
  fs.mkdirSync(home, { recursive: true });
  fs.writeFileSync(backgroundFile(home), `${JSON.stringify(app, null, 2)}\n`);
}

export function readBackgroundApp(home: string): BackgroundApp | null {
  try {
    return JSON.parse(fs.readFileSync(backgroundFile(home), "utf8")) as BackgroundApp;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Ends the background app of `home` (its whole process group) and forgets it; returns it, or null when none was running. */
export async function stopBackgroundApp(home: string): Promise<BackgroundApp | null> {
  const app = readBackgroundApp(home);
  fs.rmSync(backgroundFile(home), { force: true });
  if (!app || !isAlive(app.pid)) return null;
  const signal = (name: NodeJS.Signals) => {
    try {
      // Started detached: the group's id is its pid, and the app server's own children go with it.
      process.kill(process.platform === "win32" ? app.pid : -app.pid, name);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  const deadline = Date.now() + 10_000;
  while (isAlive(app.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (isAlive(app.pid)) signal("SIGKILL");
  return app;
}
