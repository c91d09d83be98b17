import fs from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasBuild, NO_BUILD, rawRequest, startNextServer, type NextServer } from "@/tests/support/next-server";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";

// PostgreSQL stopped under a burst of appends and started again: the app answers 503 (never a
// 500), names the database, recovers without a restart, and loses no acknowledged write.

const APPENDERS = 20;

async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("PostgreSQL outage under load", () => {
  let cluster: PrivatePostgres;
  let server: NextServer;

  beforeAll(async () => {
    if (!hasBuild()) throw new Error(NO_BUILD);
    cluster = await startPrivatePostgres();
    server = await startNextServer({ databaseUrl: cluster.url });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  }, 60_000);

  it("[RL-D3] answers only 201 or 503 while the database is down, names it, recovers by itself and loses nothing acknowledged", async () => {
    const created = await rawRequest(server.url, {
      method: "POST",
      path: "/api/conversations",
      body: JSON.stringify({ title: "outage" }),
      headers: { "content-type": "application/json" },
    });
    expect(created.status).toBe(201);
    const branchId = created.json<{ branch: { id: string } }>().branch.id;
    const acknowledged: string[] = [];
    const statuses: Record<number, number> = {};
    const unexpected: string[] = [];
    let running = true;
    const appender = async (name: string) => {
      for (let count = 0; running; count += 1) {
        const content = `${name}-${count}`;
        const response = await rawRequest(server.url, {
          method: "POST",
          path: `/api/branches/${branchId}/messages`,
          body: JSON.stringify({ messages: [{ role: "user", content }] }),
          headers: { "content-type": "application/json" },
        });
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status === 201) acknowledged.push(content);
        else if (response.status !== 503) unexpected.push(`${response.status}: ${response.body.slice(0, 300)}`);
        else if (response.json<{ error: { code: string } }>().error.code !== "database_unavailable")
          unexpected.push(`503 without database_unavailable: ${response.body}`);
        if (response.status === 503) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const burst = Array.from({ length: APPENDERS }, (_, index) => appender(`w${index}`));
    try {
      await outageAndRecovery();
    } finally {
      running = false;
      await Promise.all(burst);
    }
    expect((await rawRequest(server.url, { path: "/api/health" })).status).toBe(200);

    // The outage itself: appends flowing, PostgreSQL stopped, what the app says, PostgreSQL back.
    async function outageAndRecovery() {
      await waitFor(() => acknowledged.length >= 40, "appends before the outage");
      cluster.stop();
      await waitFor(() => (statuses[503] ?? 0) >= APPENDERS, "503s during the outage");
      const health = await rawRequest(server.url, { path: "/api/health" });
      expect(health.status).toBe(503);
      expect(health.headers["retry-after"]).toBeDefined();
      expect(health.json()).toMatchObject({ ok: false, error: { code: "database_unavailable", database: `postgres://127.0.0.1:${cluster.port}/lab` } });
      const home = await rawRequest(server.url, { path: "/" });
      expect(home.status).toBe(200);
      expect(home.body).toContain("Database unavailable, retrying");
      expect(home.body).toContain(`PostgreSQL postgres://127.0.0.1:${cluster.port}/lab`);
      expect(home.body).not.toMatch(/sqlite/i);
      const duringOutage = acknowledged.length;

      cluster.start();
      await waitFor(() => acknowledged.length >= duringOutage + 40, "appends after the database came back");
    }

    // On failure the server's own account of each 500 says what was not mapped.
    expect({ unexpected, log: unexpected.length > 0 ? server.output().split("[api] unexpected error").slice(1, 3) : [] }).toEqual({ unexpected: [], log: [] });
    expect(statuses[503]).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ position: number; content: string }>(
        'SELECT position, content FROM "Message" WHERE "branchId" = $1 ORDER BY position',
        [branchId],
      );
      expect(rows.map((row) => row.position)).toEqual(rows.map((_, index) => index));
      const stored = new Set(rows.map((row) => row.content));
      expect(acknowledged.filter((content) => !stored.has(content))).toEqual([]);
      if (process.env.OUTAGE_REPORT)
        fs.appendFileSync(process.env.OUTAGE_REPORT, `${JSON.stringify({ statuses, acknowledged: acknowledged.length, found: rows.length })}\n`);
    } finally {
      await client.end();
    }
  }, 180_000);
});
