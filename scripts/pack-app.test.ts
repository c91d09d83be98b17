// The packed app as a user gets it: the tarball installed into an empty folder from the npm registry alone
// (no clone, no build), started with `npx context-lab`, a conversation imported through the API, the app
// stopped and started again on the same data. Slow: npm installs Next, Prisma and compiles better-sqlite3.
// The conversation: tau-bench airline task 41 as Anthropic messages (sierra-research/tau-bench, MIT; tests/fixtures/README.md).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SERVER_BUNDLE } from "@/lib/server/bundle";
import { closedLoopbackPort } from "@/tests/support/loopback";
import { distDir, hasBuild, NO_BUILD } from "@/tests/support/next-server";
import { packApp } from "./pack-app";

const ROOT = path.join(import.meta.dirname, "..");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "app-pack-"));
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
  fs.rmSync(work, { recursive: true, force: true });
});

/** The environment of a user with nothing of Context Lab's set, whose shell happens to name another build. */
function userEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CONTEXT_LAB_HOME: home, NEXT_DIST_DIR: ".next-of-another-project" };
  for (const name of ["DATABASE_URL", "PORT", "HOST", "CONTEXT_LAB_TOKEN", "CONTEXT_LAB_UPSTREAM_SETTINGS_FILE"]) delete env[name];
  return env;
}

/** `npx context-lab …` in the project, in a process group of its own so that stopping it stops the app too. */
function startApp(project: string, env: NodeJS.ProcessEnv, port: number): { child: ChildProcess; running: Promise<string>; exited: Promise<number | null> } {
  const child = spawn("npx", ["context-lab", "--port", String(port)], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  started.push(child);
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const running = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Context Lab is running at (\S+)/.exec(output);
      if (match) resolve(match[1]);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    void exited.then((code) => reject(new Error(`npx context-lab exited with ${code} before it was running:\n${output}`)));
  });
  return { child, running, exited };
}

async function stopApp(app: ReturnType<typeof startApp>): Promise<void> {
  if (app.child.pid) process.kill(-app.child.pid, "SIGTERM");
  await app.exited;
}

describe("npm run pack:app", () => {
  it("[PK-2] [PK-3] [PK-4] [PK-5] [PK-6] [PK-12] [SV-8] installs into an empty folder from the registry alone, runs with npx context-lab, and keeps an imported conversation across a restart", async () => {
    // It packs the production build: without one this fails, naming how to make it.
    if (!hasBuild()) throw new Error(NO_BUILD);
    const { directory, tarball, size } = await packApp({ outDir: path.join(work, "dist"), buildDir: distDir });
    const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "context-lab", bin: { "context-lab": "bin/context-lab.mjs" } });
    expect(manifest.private).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(
      [
        "@prisma/adapter-better-sqlite3",
        "@prisma/adapter-pg",
        "@prisma/client",
        "better-sqlite3",
        "gpt-tokenizer",
        "next",
        "pg",
        "prisma",
        "react",
        "react-dom",
        "zod",
      ].sort(),
    );
    // Pinned: the build runs on the Next it was made with.
    expect(manifest.dependencies.next).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "next", "package.json"), "utf8")).version);
    // No build cache, no source maps, no links into this machine's node_modules.
    expect(fs.existsSync(path.join(directory, ".next", "cache"))).toBe(false);
    expect(fs.existsSync(path.join(directory, ".next", "node_modules"))).toBe(false);
    expect(fs.readdirSync(path.join(directory, ".next"), { recursive: true }).some((file) => String(file).endsWith(".map"))).toBe(false);
    expect(size).toBeGreaterThan(0);
    // SV-8: the app server ships bundled inside the build, the one file that starts it.
    expect(fs.existsSync(path.join(directory, ".next", SERVER_BUNDLE))).toBe(true);

    const project = path.join(work, "project");
    fs.mkdirSync(project);
    // PK-12: the project approves the one native build; Prisma's engine downloads are not needed.
    const allowScripts = { "better-sqlite3": true, prisma: false, "@prisma/engines": false, "@prisma/client": false };
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "empty", private: true, allowScripts }));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: project, stdio: "ignore", timeout: 1_200_000 });
    expect(fs.existsSync(path.join(project, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"))).toBe(true);

    const home = path.join(work, "home");
    const env = userEnvironment(home);
    const help = execFileSync("npx", ["context-lab", "--help"], { cwd: project, env, encoding: "utf8" });
    expect(help).toContain("--port N");
    expect(help).toContain("CONTEXT_LAB_HOME");

    const port = await closedLoopbackPort();
    const first = startApp(project, env, port);
    const url = await first.running;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(fs.existsSync(path.join(home, "context-lab.db"))).toBe(true);
    const text = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "import", "anthropic-task-41.json"), "utf8");
    const imported = await fetch(`${url}/api/conversations/import?title=${encodeURIComponent("Airline task 41")}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });
    expect(imported.status).toBe(201);
    const { conversations } = (await imported.json()) as { conversations: { conversation: { id: string }; messageCount: number }[] };
    expect(conversations).toHaveLength(1);
    const [{ conversation, messageCount }] = conversations;
    expect(messageCount).toBeGreaterThan(5);
    await stopApp(first);
    await expect(fetch(`${url}/api/health`)).rejects.toThrow();

    const second = startApp(project, env, port);
    expect(await second.running).toBe(url);
    const found = (await (await fetch(`${url}/api/conversations/${conversation.id}`)).json()) as {
      conversation: { title: string; source: string };
      branches: { length: number }[];
    };
    expect(found.conversation).toMatchObject({ title: "Airline task 41", source: "import:anthropic" });
    expect(found.branches.map((branch) => branch.length)).toEqual([messageCount]);
    const page = await fetch(`${url}/c/${conversation.id}`);
    expect(page.status).toBe(200);
    await stopApp(second);
  }, 1_500_000);
});
