import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { rawRequest, startNextServer, type NextServer } from "@/tests/support/next-server";

// [RL-D6] A 100,000-message import against `next start` on SQLite while /api/health is asked every
// 20 ms: every health check is answered (none fails, they keep coming during the import) and every
// message is stored. Latency is printed for docs/RELIABILITY.md, never asserted (figures vary by machine).

const COUNT = 100_000;
const words = ["the", "booking", "flight", "refund", "passenger", "baggage", "seat", "upgrade", "policy", "reservation", "cancel", "change"];
const body = Array.from({ length: COUNT }, (_, index) =>
  JSON.stringify({
    role: index % 2 === 0 ? "user" : "assistant",
    content: Array.from({ length: 12 + (index % 12) }, (_, word) => words[(index * 7 + word) % words.length]).join(" "),
  }),
).join("\n");

describe("a 100,000-message import", () => {
  let database: TestDatabase;
  let server: NextServer;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startNextServer({ databaseUrl: database.url });
    // The first import loads the parsers and token ranks once: not what is measured.
    await rawRequest(server.url, {
      method: "POST",
      path: "/api/conversations/import?title=warm",
      body: '[{"role":"user","content":"warm"}]',
      headers: { "content-type": "application/json" },
    });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

  it("[RL-D6] keeps answering /api/health during the import and stores every message", async () => {
    const latencies: number[] = [];
    const failures: string[] = [];
    let importing = true;
    const probe = (async () => {
      while (importing) {
        const started = performance.now();
        const response = await rawRequest(server.url, { path: "/api/health" }).catch((error: unknown) => ({ status: 0, body: String(error) }));
        if (response.status !== 200) failures.push(`${response.status} ${response.body.slice(0, 200)}`);
        else latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const started = performance.now();
    const response = await rawRequest(server.url, {
      method: "POST",
      path: "/api/conversations/import?title=big",
      body,
      headers: { "content-type": "application/x-ndjson" },
    });
    const seconds = (performance.now() - started) / 1000;
    importing = false;
    await probe;

    expect(response.status, response.body.slice(0, 500)).toBe(201);
    expect(response.json<{ conversations: { messageCount: number }[] }>().conversations[0].messageCount).toBe(COUNT);
    expect(await database.db.message.count()).toBe(COUNT + 1);
    expect(failures).toEqual([]);
    // Health checks kept coming while the import ran: at least one for every second of it.
    expect(latencies.length).toBeGreaterThanOrEqual(Math.floor(seconds));
    latencies.sort((first, second) => first - second);
    const at = (share: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))].toFixed(1));
    console.log(
      JSON.stringify({
        messages: COUNT,
        bytes: Buffer.byteLength(body),
        importSeconds: Number(seconds.toFixed(2)),
        healthChecks: latencies.length,
        healthMedianMs: at(0.5),
        healthP99Ms: at(0.99),
        healthMaxMs: at(1),
      }),
    );
  }, 300_000);
});
