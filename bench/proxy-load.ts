import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { machineCpuMs, processCpuMs } from "./cpu";
import { type Job, startOpenAIAgents, turnMessages } from "./openai-agents";
import { buildApp } from "./playground/app";
import { createBenchDatabaseFile, createBenchSchema } from "./proxy";
import { machine, table, writeSection } from "./results";

/**
 * Recording at evaluation scale: many agents at once through the app as
 * users start it, every call recorded and placed. The agents are the
 * official `openai` client on a worker thread, whole answers and streams
 * mixed, against a fake upstream that answers at once (this thread); the
 * same calls straight to the fake give the rate the agents reach without
 * the proxy. SQLite with one server; PostgreSQL with two servers on one
 * database, the agents split between them (the documented team setup).
 */

const AGENT_COUNTS = [20, 50, 100];
const CALLS_PER_AGENT = 20;
/** Rounds of the first load run before the clock: the rate climbs over the first four or five, then holds. */
const WARM_UP_ROUNDS = 5;

/** Every agent's turns in order, agents interleaved; every other call streamed. */
function jobsFor(agents: number, baseURLs: string[], prefix: string): Job[] {
  const jobs: Job[] = [];
  for (let turn = 0; turn < CALLS_PER_AGENT; turn += 1)
    for (let agent = 0; agent < agents; agent += 1)
      jobs.push({
        baseURL: baseURLs[agent % baseURLs.length]!,
        apiKey: `ctxlab-${prefix}-${agent}`,
        stream: (agent + turn) % 2 === 1,
        messages: turnMessages(`${prefix}-${agent}`, turn),
      });
  return jobs;
}

/** Calls in their conversations: exchanges with their outcome whose journal row is gone. */
const PLACED = `SELECT COUNT(*) AS n FROM $schema."Exchange" e WHERE e."status" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM $schema."ProxyCall" p WHERE p."id" = e."id")`;

interface Store {
  name: string;
  url: string;
  /** Servers on this database. */
  servers: number;
  /** Calls placed so far: exchanges with their outcome, journal rows gone. */
  placed(): Promise<number>;
  close(): Promise<void>;
}

async function sqliteStore(): Promise<Store> {
  const { url, folder } = createBenchDatabaseFile("proxy-load");
  const { default: Sqlite } = await import("better-sqlite3");
  const file = url.slice("file:".length);
  return {
    name: "SQLite",
    url,
    servers: 1,
    placed: async () => {
      const db = new Sqlite(file, { readonly: true, fileMustExist: true });
      try {
        return (db.prepare(PLACED.replaceAll("$schema.", "")).get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    close: async () => fs.rmSync(folder, { recursive: true, force: true }),
  };
}

async function postgresStore(): Promise<Store | null> {
  const schema = await createBenchSchema("proxy_load");
  if (!schema) return null;
  const { default: pg } = await import("pg");
  const url = new URL(schema.url);
  const name = url.searchParams.get("schema")!;
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const count = async (sql: string) => Number((await client.query(sql)).rows[0].n);
  return {
    name: "PostgreSQL",
    url: schema.url,
    servers: 2,
    placed: () => count(PLACED.replaceAll("$schema", `"${name}"`)),
    close: async () => {
      await client.end();
      await schema.drop();
    },
  };
}

async function waitForPlaced(store: Store, expected: number): Promise<void> {
  const deadline = Date.now() + 600_000;
  while ((await store.placed()) < expected) {
    if (Date.now() > deadline) throw new Error(`${store.name}: only ${await store.placed()} of ${expected} calls placed after 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface CpuSnapshot {
  servers: number | null;
  bench: number;
  machine: { busy: number; total: number } | null;
}

function cpuSnapshot(pids: readonly number[]): CpuSnapshot {
  const each = pids.map(processCpuMs);
  const usage = process.cpuUsage();
  return {
    servers: each.some((ms) => ms === null) ? null : each.reduce<number>((sum, ms) => sum + ms!, 0),
    bench: (usage.user + usage.system) / 1_000,
    machine: machineCpuMs(),
  };
}

/** Each side's CPU time per call between two snapshots, formatted; "–" where /proc could not be read. */
function cpuPerCall(before: CpuSnapshot, after: CpuSnapshot, calls: number): { servers: string; bench: string; rest: string; busy: string } {
  const servers = before.servers === null || after.servers === null ? null : after.servers - before.servers;
  const bench = after.bench - before.bench;
  const machine =
    before.machine && after.machine ? { busy: after.machine.busy - before.machine.busy, total: after.machine.total - before.machine.total } : null;
  const perCall = (ms: number | null) => (ms === null ? "–" : (ms / calls).toFixed(1));
  return {
    servers: perCall(servers),
    bench: perCall(bench),
    rest: perCall(machine && servers !== null ? Math.max(0, machine.busy - servers - bench) : null),
    busy: machine && machine.total > 0 ? `${Math.round((100 * machine.busy) / machine.total)}%` : "–",
  };
}

export async function benchProxyLoad(): Promise<string> {
  const { startFakeOpenAI } = await import("@/tests/support/fake-openai");
  const { distDir, hasBuild, startNextServer } = await import("@/tests/support/next-server");
  if (!hasBuild()) {
    console.log(`proxy-load: building the app into ${distDir}…`);
    await buildApp(distDir);
  }
  const fake = await startFakeOpenAI();
  const agents = startOpenAIAgents();
  const settingsFile = path.join(os.tmpdir(), `context-lab-bench-proxy-load-${process.pid}.json`);
  const rows: string[][] = [];
  try {
    const stores = [await sqliteStore(), await postgresStore()].filter((store): store is Store => store !== null);
    for (const store of stores) {
      const env = { CONTEXT_LAB_UPSTREAM_BASE_URL: fake.baseUrl, CONTEXT_LAB_UPSTREAM_API_KEY: "sk-bench", CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: settingsFile };
      const servers = [];
      for (let index = 0; index < store.servers; index += 1) servers.push(await startNextServer({ databaseUrl: store.url, env }));
      try {
        const proxied = servers.map((server) => `${server.url}/api/v1`);
        // Warm-up until the rate is steady: the servers' JIT compiles the hot path over the first thousands of
        // calls (a CPU profile shows the optimising compiler busy for ~10 s), and an evaluation run lasts far longer.
        let expected = 0;
        for (let round = 0; round < WARM_UP_ROUNDS; round += 1) {
          const warm = jobsFor(AGENT_COUNTS[0], proxied, `warm-${round}`);
          await agents.run(warm, AGENT_COUNTS[0]);
          expected += warm.length;
        }
        await waitForPlaced(store, expected);
        for (const count of AGENT_COUNTS) {
          const direct = jobsFor(count, [fake.baseUrl], `direct-${count}`);
          let started = performance.now();
          await agents.run(direct, count);
          const directMs = performance.now() - started;
          const jobs = jobsFor(count, proxied, `load-${count}`);
          const cpuBefore = cpuSnapshot(servers.map((server) => server.pid));
          started = performance.now();
          await agents.run(jobs, count);
          const answeredMs = performance.now() - started;
          expected += jobs.length;
          await waitForPlaced(store, expected);
          const placedMs = performance.now() - started;
          const cpu = cpuPerCall(cpuBefore, cpuSnapshot(servers.map((server) => server.pid)), jobs.length);
          const rate = (ms: number) => jobs.length / (ms / 1_000);
          rows.push([
            store.name,
            String(store.servers),
            String(count),
            String(jobs.length),
            rate(directMs).toFixed(0),
            rate(answeredMs).toFixed(0),
            rate(placedMs).toFixed(0),
            `${Math.round((100 * rate(placedMs)) / rate(directMs))}%`,
            cpu.servers,
            cpu.bench,
            cpu.rest,
            cpu.busy,
          ]);
          console.log(`proxy-load: ${rows.at(-1)!.join(" | ")}`);
        }
      } finally {
        for (const server of servers) await server.stop();
        await store.close();
      }
    }
  } finally {
    await agents.close();
    await fake.close();
    fs.rmSync(settingsFile, { force: true });
  }
  const markdown = [
    "## Proxy at evaluation scale: many agents at once, every call recorded and placed",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}; load average (1 min) ${os.loadavg()[0].toFixed(1)} at the end. The app as users start it (\`npm start\`'s server, its own process), on a fresh database, warmed up by ${WARM_UP_ROUNDS} rounds of the ${AGENT_COUNTS[0]}-agent load (${WARM_UP_ROUNDS * AGENT_COUNTS[0] * CALLS_PER_AGENT} calls per database, which the rate climbs over before it holds): SQLite with one server, PostgreSQL with two servers on one database and the agents split between them. The agents: the official \`openai\` client on a worker thread of the bench, ${CALLS_PER_AGENT} turns each of a growing conversation, whole answers and streams alternating, all agents at once; a fake upstream that answers at once on the bench's main thread. "Direct" is the same calls straight to the fake. "Placed" runs until every call is in its conversation (its exchange has its outcome and its journal row is gone).`,
    "",
    table(
      [
        "database",
        "servers",
        "agents",
        "calls",
        "direct calls/s",
        "answered calls/s",
        "placed calls/s",
        "placed / direct",
        "servers' CPU ms per call",
        "bench's CPU ms per call",
        "the rest's CPU ms per call",
        "machine busy",
      ],
      rows,
    ),
    "",
    `CPU time is read from /proc over the proxied run (from the first call to the last placement), per call: the app servers' processes, the bench's own (the agents' client and the fake upstream), and the rest of the machine's busy time (the database server for PostgreSQL, the kernel's share of loopback traffic, other jobs on a shared machine). "Machine busy" is the share of all ${os.cpus().length} cores busy meanwhile: near 100%, the rate is bound by the CPU, not by waiting.`,
  ].join("\n");
  writeSection("proxy-load", markdown);
  return markdown;
}
