import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Message } from "@/lib/context";
import { serverBundleOf } from "@/lib/server/bundle";

/**
 * The playground as users get it, for bench/playground.ts: a production build
 * in its own dist folder, the app server (lib/server) on a free loopback port over a fresh
 * SQLite file, conversations imported through the real API. Everything it
 * makes is removed by `stop()`, which is safe to call after a failure.
 */

const ROOT = path.join(import.meta.dirname, "..", "..");
const DIST_DIR = ".next-bench";
/** `next build` adds its dist folder's type paths to these two files: they are put back as they were. */
const REWRITTEN_BY_BUILD = ["tsconfig.json", "next-env.d.ts"];

function run(command: string, args: string[], env: NodeJS.ProcessEnv, label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${label} failed (exit ${code}):\n${output.slice(-4_000)}`))));
  });
}

/** `npm run build` into `distDir` (Next's build, then the server bundle), leaving the files the build rewrites as they were; resolves to the milliseconds it took. */
export async function buildApp(distDir: string): Promise<number> {
  const saved = REWRITTEN_BY_BUILD.map((file) => ({
    file: path.join(ROOT, file),
    text: fs.existsSync(path.join(ROOT, file)) ? fs.readFileSync(path.join(ROOT, file), "utf8") : null,
  }));
  const started = performance.now();
  try {
    await run("bash", [path.join(ROOT, "scripts", "build.sh")], { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" }, "npm run build");
  } finally {
    for (const { file, text } of saved) if (text !== null && (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text)) fs.writeFileSync(file, text);
  }
  return performance.now() - started;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the app server exited with ${server.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the app server did not answer within 60 s:\n${log()}`);
}

export interface ImportedConversation {
  id: string;
  messageCount: number;
}

export interface BenchApp {
  url: string;
  buildMs: number;
  importConversation(title: string, messages: Message[]): Promise<ImportedConversation>;
  stop(): Promise<void>;
}

/** Builds the app, migrates a fresh database and starts the app server; on failure, removes what it made and rethrows. */
export async function startBenchApp(): Promise<BenchApp> {
  fs.mkdirSync(path.join(ROOT, "tmp"), { recursive: true });
  const folder = fs.mkdtempSync(path.join(ROOT, "tmp", "bench-playground-"));
  const databaseUrl = `file:${path.join(folder, "bench.db")}`;
  const env = { ...process.env, NODE_ENV: "production" as const, NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: databaseUrl };
  let server: ChildProcess | undefined;

  const stop = async () => {
    if (server && server.exitCode === null && server.pid) {
      const exited = new Promise((resolve) => server?.once("exit", resolve));
      // Its own process group (detached below): the server and any worker it forks.
      process.kill(-server.pid, "SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (server.exitCode === null) process.kill(-server.pid, "SIGKILL");
    }
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(path.join(ROOT, DIST_DIR), { recursive: true, force: true });
  };

  try {
    const buildMs = await buildApp(DIST_DIR);
    await run("bash", ["scripts/prisma.sh", "migrate"], env, "prisma migrate");

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let log = "";
    server = spawn(process.execPath, [serverBundleOf(ROOT, DIST_DIR), "-p", String(port), "-H", "127.0.0.1", "--dir", ROOT], {
      cwd: ROOT,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout?.on("data", (chunk: Buffer) => (log += chunk));
    server.stderr?.on("data", (chunk: Buffer) => (log += chunk));
    await waitForServer(url, server, () => log);

    return {
      url,
      buildMs,
      async importConversation(title, messages) {
        const response = await fetch(`${url}/api/conversations/import?title=${encodeURIComponent(title)}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(messages),
        });
        if (!response.ok) throw new Error(`import of ${title} failed: ${response.status} ${await response.text()}`);
        const body = (await response.json()) as { conversations: { conversation: { id: string }; messageCount: number }[] };
        return { id: body.conversations[0].conversation.id, messageCount: body.conversations[0].messageCount };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
