import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Job, startOpenAIAgents, type Timing, turnMessages } from "./openai-agents";
import { buildApp } from "./playground/app";
import { createBenchDatabaseFile, percentile } from "./proxy";
import { formatMs, machine, table, writeSection } from "./results";

/**
 * The recording proxy as agents meet it: the app as users start it (its own
 * server, lib/server, on the production build, its own process) between the
 * official `openai` client (on a worker thread,
 * with the client's default headers) and a fake upstream that answers at once
 * (this thread). Latency: one call at a time, direct and through the proxy
 * interleaved. Many agents at once: bench/proxy-load.ts.
 */

const WARMUP = 40;
const MEASURED = 300;
const TURNS_PER_CONVERSATION = 20;
/** The pause before each latency call, standing for the model's time to answer (the fake answers at once). */
const THINK_MS = 50;

interface Rows {
  label: string;
  direct: number[];
  proxied: number[];
  /** What the route itself spent on each proxied call, from its Server-Timing. */
  route: number[];
  /** What the server spent around the route on each proxied call: `server - upstream - proxy` (SV-6). */
  around: number[];
}

function latencyRows(rows: Rows[]): string[][] {
  return rows.flatMap(({ label, direct, proxied, route, around }) => {
    const [d50, d99, p50, p99] = [percentile(direct, 0.5), percentile(direct, 0.99), percentile(proxied, 0.5), percentile(proxied, 0.99)];
    const [r50, a50] = [percentile(route, 0.5), percentile(around, 0.5)];
    return [
      [label, "direct", formatMs(d50), formatMs(d99), "", "", "", "", ""],
      [
        label,
        "through the proxy",
        formatMs(p50),
        formatMs(p99),
        formatMs(p50 - d50),
        formatMs(p99 - d99),
        formatMs(r50),
        formatMs(a50),
        formatMs(p50 - d50 - r50 - a50),
      ],
    ];
  });
}

/** A proxied call's Server-Timing entries, which every proxied answer carries. */
function timingEntries(timing: Timing): { proxyMs: number; serverMs: number; upstreamMs: number } {
  const { proxyMs, serverMs, upstreamMs } = timing;
  if (proxyMs === null || serverMs === null || upstreamMs === null) throw new Error("a proxied answer came without its Server-Timing");
  return { proxyMs, serverMs, upstreamMs };
}

/** A migrated SQLite file in a temporary folder, removed by `close`. */
function sqliteStore(): { url: string; close(): void } {
  const { url, folder } = createBenchDatabaseFile("proxy-next");
  return { url, close: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

export async function benchProxyNext(): Promise<string> {
  const { startFakeOpenAI } = await import("@/tests/support/fake-openai");
  const { distDir, hasBuild, startNextServer } = await import("@/tests/support/next-server");
  if (!hasBuild()) {
    console.log(`proxy-next: building the app (npm run build into ${distDir})…`);
    await buildApp(distDir);
  }
  const fake = await startFakeOpenAI();
  const client = startOpenAIAgents();
  const loadBefore = os.loadavg()[0].toFixed(1);
  const settingsFile = path.join(os.tmpdir(), `context-lab-bench-proxy-next-${process.pid}.json`);
  let latency: string[][] = [];
  try {
    const store = sqliteStore();
    {
      const server = await startNextServer({
        databaseUrl: store.url,
        env: { CONTEXT_LAB_UPSTREAM_BASE_URL: fake.baseUrl, CONTEXT_LAB_UPSTREAM_API_KEY: "sk-bench", CONTEXT_LAB_UPSTREAM_SETTINGS_FILE: settingsFile },
      });
      try {
        const proxyURL = `${server.url}/api/v1`;
        const job = (baseURL: string, agent: string, turn: number, stream: boolean): Job => ({
          baseURL,
          apiKey: `ctxlab-${agent}`,
          stream,
          messages: turnMessages(agent, turn),
        });
        {
          // Latency on the embedded database, one call at a time, direct and proxied interleaved.
          const measure = async (stream: boolean, models = false) => {
            const jobs: Job[] = [];
            for (let index = 0; index < WARMUP + MEASURED; index += 1) {
              const agent = `latency-${stream ? "s" : "w"}-${Math.floor(index / TURNS_PER_CONVERSATION)}`;
              const turn = index % TURNS_PER_CONVERSATION;
              const extra = { pauseMs: THINK_MS, models };
              jobs.push({ ...job(fake.baseUrl, agent, turn, stream), ...extra }, { ...job(proxyURL, agent, turn, stream), ...extra });
            }
            const timings = (await client.run(jobs)).slice(WARMUP * 2);
            return { direct: timings.filter((_, index) => index % 2 === 0), proxied: timings.filter((_, index) => index % 2 === 1) };
          };
          const whole = await measure(false);
          const streamed = await measure(true);
          const row = (label: string, timings: typeof whole, pick: "firstChunk" | "total"): Rows => ({
            label,
            direct: timings.direct.map((timing) => timing[pick]),
            proxied: timings.proxied.map((timing) => timing[pick]),
            route: timings.proxied.map((timing) => timingEntries(timing).proxyMs),
            around: timings.proxied.map((timing) => {
              const { proxyMs, serverMs, upstreamMs } = timingEntries(timing);
              return Math.max(0, serverMs - upstreamMs - proxyMs);
            }),
          });
          const listed = await measure(false, true);
          const rows = [
            row("whole answer", whole, "total"),
            row("stream, first chunk", streamed, "firstChunk"),
            row("stream, to the end", streamed, "total"),
            row("model list (forwarded, not recorded)", listed, "total"),
          ];
          latency = latencyRows(rows);
        }
      } finally {
        await server.stop();
        store.close();
      }
    }
  } finally {
    await client.close();
    await fake.close();
    fs.rmSync(settingsFile, { force: true });
  }
  const markdown = [
    "## Proxy through the app server: what an agent adds by pointing its base URL at Context Lab",
    "",
    `Measured on ${machine()}, ${new Date().toISOString().slice(0, 10)}. The app as users start it (\`npm start\`: its own server, lib/server, on the production build, its own process) on a fresh database; the official \`openai\` client with its default headers on a worker thread; a fake upstream that answers at once on the bench's main thread. Each latency row: ${MEASURED} calls after ${WARMUP} warm-up, direct and proxied interleaved, one at a time; requests are turns of 20-turn conversations with their whole history. Recording follows the answer. Load average (1 min) ${loadBefore} when the bench began, ${os.loadavg()[0].toFixed(1)} when it ended: on a machine shared with other jobs every figure is noisy, the direct rows show by how much.`,
    "",
    "### Latency, one call at a time (SQLite)",
    "",
    table(
      [
        "answer",
        "path",
        "p50 ms",
        "p99 ms",
        "added p50 ms",
        "added p99 ms",
        "the route's own work, p50 ms",
        "the server around the route, p50 ms",
        "the rest of the added p50 ms",
      ],
      latency,
    ),
    "",
    `Each call waits ${THINK_MS} ms before it is sent, standing for the model's time to answer, so the previous call's recording is not counted against the next one. The model list is forwarded without a database write or a recording: what it adds is the server's own cost per request (the request guard, the route, the second hop), the floor under the recorded calls.`,
    "",
    "Before the app server, through `next start` on the same machine (2026-11-28), the added p50 was 10.5 ms for a whole answer, 7.25 ms to the first streamed chunk and 4.86 ms for the model list: Next's routing and its request hook in front of the same route.",
    "",
    "The split comes from each proxied answer's `Server-Timing` header. The route's own work is its `proxy` entry: the handler's time up to the answer's headers, less its waits for the upstream (reading the request, the conversation lookup, the journal writes). The server around the route is `server - upstream - proxy` (SV-6): turning the Node request into a web one, the request guard, the dispatch. The rest is what no entry covers: parsing the request before the server sees it, writing the answer's bytes, and the second HTTP hop, to the upstream and back, that a direct call does not make.",
  ].join("\n");
  writeSection("proxy-next", markdown);
  return markdown;
}
