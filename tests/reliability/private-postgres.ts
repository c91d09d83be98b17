import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrationSql } from "@/tests/support/db";
import { closedLoopbackPort } from "@/tests/support/loopback";

/**
 * A PostgreSQL cluster of the test's own, in a temporary folder on a free
 * port, so an outage test can stop and start it without touching the shared
 * server other tests use. Runs the cluster as the `postgres` user when the
 * tests run as root (initdb refuses root).
 */
export interface PrivatePostgres {
  /** DATABASE_URL of its migrated `lab` database. */
  url: string;
  port: number;
  stop(): void;
  start(): void;
  destroy(): void;
}

function binaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(root, version, "bin")).find((bin) => fs.existsSync(path.join(bin, "initdb")));
  if (!found) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin: install the postgresql package");
  return found;
}

function asPostgres(command: string, args: string[]): void {
  const root = process.getuid?.() === 0;
  const [file, fullArgs] = root ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  execFileSync(file, fullArgs, { stdio: "pipe", timeout: 60_000 });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binaries();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-pg-"));
  fs.chmodSync(folder, 0o777);
  const data = path.join(folder, "data");
  const port = await closedLoopbackPort();
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", folder]);
  asPostgres(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", path.join(folder, "log"), "-w", "start"]);
  // "fast": connected sessions are ended with 57P01, as an administrator's restart would.
  const stop = () => asPostgres(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  const admin = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE lab");
  await admin.end();
  const lab = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/lab` });
  await lab.connect();
  for (const sql of migrationSql("postgres")) await lab.query(sql);
  await lab.end();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/lab`,
    port,
    stop,
    start,
    destroy: () => {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
