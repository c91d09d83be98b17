// Measures what a 100,000-message import costs the other requests: `next start` on a fresh
// SQLite file, the import sent once, /api/health asked every 20 ms meanwhile. Prints the import's
// time and the health checks' worst and 99th-percentile latency (docs/RELIABILITY.md quotes them).
// Run: NEXT_DIST_DIR=.next node --conditions=react-server --import tsx tests/reliability/measure-import.ts [messages]
import { createTestDatabase } from "@/tests/support/db";
import { rawRequest, startNextServer } from "@/tests/support/next-server";

const count = Number(process.argv[2] ?? 100_000);
/** What is asked while the import runs: the health check, which reads the database (MEASURE_PATH to ask something else). */
const probePath = process.env.MEASURE_PATH ?? "/api/health";
const words = ["the", "booking", "flight", "refund", "passenger", "baggage", "seat", "upgrade", "policy", "reservation", "cancel", "change"];
const messages = Array.from({ length: count }, (_, index) => ({
  role: index % 2 === 0 ? "user" : "assistant",
  content: Array.from({ length: 12 + (index % 12) }, (_, word) => words[(index * 7 + word) % words.length]).join(" "),
}));
const body = messages.map((message) => JSON.stringify(message)).join("\n");

const database = await createTestDatabase("sqlite");
const server = await startNextServer({
  databaseUrl: database.url,
  env: process.env.MEASURE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.MEASURE_NODE_OPTIONS } : {},
});
try {
  // Warm: the first import loads the parsers and the token ranks once; that is not what is measured.
  await rawRequest(server.url, { path: "/api/health" });
  await rawRequest(server.url, {
    method: "POST",
    path: "/api/conversations/import?title=warm",
    body: JSON.stringify([{ role: "user", content: "warm" }]),
    headers: { "content-type": "application/json" },
  });
  const latencies: number[] = [];
  let importStarted = performance.now();
  let importing = true;
  const probe = (async () => {
    while (importing) {
      const started = performance.now();
      const response = await rawRequest(server.url, { path: probePath });
      if (response.status >= 500) throw new Error(`${probePath} answered ${response.status}`);
      latencies.push(performance.now() - started);
      if (process.env.MEASURE_TIMELINE) {
        const probeStarted = performance.now();
        await rawRequest(server.url, { path: "/api/no-database-here" });
        console.error(`no-db route at ${(probeStarted - importStarted).toFixed(0)} ms took ${(performance.now() - probeStarted).toFixed(0)} ms`);
      }
      if (process.env.MEASURE_TIMELINE)
        console.error(`health at ${(started - importStarted).toFixed(0)} ms took ${(performance.now() - started).toFixed(0)} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  importStarted = started;
  const response = await rawRequest(server.url, {
    method: "POST",
    path: "/api/conversations/import?title=big",
    body,
    headers: { "content-type": "application/x-ndjson" },
  });
  const seconds = (performance.now() - started) / 1000;
  importing = false;
  await probe;
  latencies.sort((a, b) => a - b);
  const stored = await database.db.message.count();
  console.log(
    JSON.stringify({
      messages: count,
      bytes: Buffer.byteLength(body),
      status: response.status,
      importSeconds: Number(seconds.toFixed(2)),
      stored,
      healthChecks: latencies.length,
      healthMaxMs: Number(latencies.at(-1)?.toFixed(1)),
      healthP99Ms: Number(latencies[Math.floor(latencies.length * 0.99)]?.toFixed(1)),
      healthMedianMs: Number(latencies[Math.floor(latencies.length / 2)]?.toFixed(1)),
    }),
  );
} catch (error) {
  console.error(`measure-import failed: ${String(error)}\n--- server output ---\n${server.output().slice(-4000)}`);
  process.exitCode = 1;
} finally {
  await server.stop();
  await database.cleanup();
}
