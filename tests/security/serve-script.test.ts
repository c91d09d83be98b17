import { spawn, spawnSync } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closedLoopbackPort } from "@/tests/support/loopback";
import { distDir, hasBuild, rawRequest } from "@/tests/support/next-server";

// scripts/serve.sh, which every start command goes through: loopback unless told otherwise, and
// nothing else without an access token.

const root = path.resolve(import.meta.dirname, "..", "..");
const script = path.join(root, "scripts", "serve.sh");

function serve(env: Record<string, string>) {
  return spawnSync("bash", [script, "start"], { cwd: root, env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });
}

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1_000 });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe("scripts/serve.sh", () => {
  it("[SEC-1] refuses to bind a non-loopback address without CONTEXT_LAB_TOKEN, and a token under 16 characters", () => {
    const open = serve({ HOST: "0.0.0.0", CONTEXT_LAB_TOKEN: "" });
    expect(open.status).toBe(1);
    expect(open.stderr).toContain("refuses to listen on 0.0.0.0 without an access token");
    const short = serve({ HOST: "0.0.0.0", CONTEXT_LAB_TOKEN: "short-token" });
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("use at least 16");
  });

  it.runIf(hasBuild())(
    "[SEC-1] binds 127.0.0.1 by default: reachable on loopback, not on this machine's other addresses",
    async () => {
      const port = await closedLoopbackPort();
      const child = spawn("bash", [script, "start"], {
        cwd: root,
        env: { ...process.env, HOST: "", PORT: String(port), NEXT_DIST_DIR: distDir, DATABASE_URL: "file:/tmp/context-lab-serve-test.db" },
        stdio: "ignore",
        detached: true,
      });
      try {
        await expect
          .poll(
            () =>
              rawRequest(`http://127.0.0.1:${port}`, { path: "/login" })
                .then((response) => response.status)
                .catch(() => 0),
            { timeout: 60_000 },
          )
          .toBe(200);
        const others = Object.values(os.networkInterfaces())
          .flat()
          .filter((entry) => entry && entry.family === "IPv4" && !entry.internal);
        for (const address of others) expect(await reachable(address!.address, port)).toBe(false);
      } finally {
        process.kill(-child.pid!, "SIGTERM");
      }
    },
    90_000,
  );
});
