import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { serverBundleOf } from "@/lib/server/bundle";
import { closedLoopbackPort } from "./loopback";

/**
 * The real app as users start it, for server tests: the production build
 * (NEXT_DIST_DIR, default `.next`; `scripts/test.sh` builds it before the
 * unit run) served by its bundled app server (lib/server, SV-1) on 127.0.0.1
 * at a free port, against the database and with the environment a test
 * gives it. `kill()` is `kill -9`.
 */

const root = path.resolve(import.meta.dirname, "..", "..");
/** The build the server tests run. */
export const distDir = process.env.NEXT_DIST_DIR || ".next";

/** Whether a production build and its server bundle exist to start. */
export function hasBuild(): boolean {
  return fs.existsSync(path.join(root, distDir, "BUILD_ID")) && fs.existsSync(serverBundleOf(root, distDir));
}

/** Why a server test cannot run: it fails with this rather than skip (scripts/test.sh builds first; test:fast leaves server tests out). */
export const NO_BUILD = `no production build in ${distDir}: run \`NEXT_DIST_DIR=${distDir} npm run build\` (scripts/test.sh does)`;

export interface NextServer {
  url: string;
  port: number;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  /** Everything the server printed. */
  output(): string;
  /** SIGKILL: no shutdown hooks, no flush. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface NextServerOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  port?: number;
}

async function waitForServer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app server exited with ${child.exitCode}:\n${output()}`);
    const status = await rawRequest(url, { path: "/login", headers: { host: new URL(url).host } })
      .then((response) => response.status)
      .catch(() => 0);
    if (status > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the app server did not answer within 60 s:\n${output()}`);
}

/** Starts the app server on the build and waits until it answers. */
export async function startNextServer(options: NextServerOptions): Promise<NextServer> {
  if (!hasBuild()) throw new Error(NO_BUILD);
  const port = options.port ?? (await closedLoopbackPort());
  let printed = "";
  const child = spawn(process.execPath, [serverBundleOf(root, distDir), "-H", "127.0.0.1", "-p", String(port), "--dir", root], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: options.databaseUrl, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  try {
    await waitForServer(url, child, () => printed);
  } catch (error) {
    await end("SIGKILL");
    throw error;
  }
  return { url, port, pid: child.pid!, output: () => printed, kill: () => end("SIGKILL"), stop: () => end("SIGTERM") };
}

/** Two app servers on one database and environment: `open` without an access token, `locked` with one. */
export interface ServerPair {
  open: NextServer;
  locked: NextServer;
  stop(): Promise<void>;
}

export interface ServerPairOptions extends Omit<NextServerOptions, "port"> {
  /** The locked server's CONTEXT_LAB_TOKEN. */
  token: string;
}

/** Starts the open and the locked server side by side; if one fails to start, the other is stopped before the error is thrown. */
export async function startServerPair({ token, env, ...options }: ServerPairOptions): Promise<ServerPair> {
  const started = await Promise.allSettled([startNextServer({ ...options, env }), startNextServer({ ...options, env: { ...env, CONTEXT_LAB_TOKEN: token } })]);
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  const [open, locked] = servers;
  return {
    open,
    locked,
    stop: async () => {
      await Promise.all(servers.map((server) => server.stop()));
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RawRequestOptions {
  method?: string;
  path?: string;
  /** Sent exactly as given, `Host` included (fetch cannot set it). */
  headers?: Record<string, string>;
  body?: string;
}

/** One HTTP request with full control of its headers, as an attacker's page or a rebinding name would send it. */
export function rawRequest(base: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const target = new URL(options.path ?? "/", base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = { ...(body ? { "content-length": String(body.length) } : {}), ...options.headers };
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? "GET",
        headers,
        setHost: !("host" in headers),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, json: <T>() => JSON.parse(text) as T });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
