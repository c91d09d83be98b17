import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConversation, STAGING_SOURCE_PREFIX } from "@/lib/db";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/tests/support/db";
import { hasBuild, NO_BUILD, rawRequest, startNextServer, type NextServer } from "@/tests/support/next-server";

// kill -9 of the real server in a burst of 20 appenders and an import of 200 conversations,
// five times on each database: every acknowledged append is there after the restart, in
// contiguous positions, and each import is there whole or not at all.

const ROUNDS = 5;
const APPENDERS = 20;
const runs = hasBuild() || process.env.CI ? describe : describe.skip;
if (!hasBuild() && !process.env.CI) console.warn(`tests/reliability/crash skipped: ${NO_BUILD}`);

const tauBench = fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "tau-bench-gpt4o-airline.json"), "utf8");
const IMPORTED = (JSON.parse(tauBench) as unknown[]).length;

interface RoundFigures {
  acknowledged: number;
  found: number;
  importAcknowledged: boolean;
  importedFound: number;
}

/** What a client sees when the server is killed under it. */
function isConnectionLost(error: unknown): boolean {
  return /socket hang up|ECONNRESET|ECONNREFUSED|EPIPE/.test(`${String(error)} ${(error as NodeJS.ErrnoException).code ?? ""}`);
}

/** Appends one message; remembers it once the server has acknowledged it (201). */
async function appendOnce(server: NextServer, branchId: string, content: string, acknowledged: string[]): Promise<void> {
  const response = await rawRequest(server.url, {
    method: "POST",
    path: `/api/branches/${branchId}/messages`,
    body: JSON.stringify({ messages: [{ role: "user", content }] }),
    headers: { "content-type": "application/json" },
  });
  if (response.status !== 201) throw new Error(`append answered ${response.status}: ${response.body}`);
  acknowledged.push(content);
}

/** One appender: appends until the server dies, remembering what was acknowledged. */
async function appendUntilKilled(server: NextServer, branchId: string, name: string, acknowledged: string[]): Promise<void> {
  for (let count = 0; ; count += 1) {
    try {
      await appendOnce(server, branchId, `${name}-${count}`, acknowledged);
    } catch (error) {
      if (isConnectionLost(error)) return;
      throw error;
    }
  }
}

runs.each(TEST_PROVIDERS)("kill -9 during writes (%s)", (provider) => {
  let database: TestDatabase;
  const figures: RoundFigures[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });

  afterAll(async () => {
    if (process.env.CRASH_REPORT) fs.appendFileSync(process.env.CRASH_REPORT, `${JSON.stringify({ provider, figures })}\n`);
    await database?.cleanup();
  });

  it(`[D4] loses no acknowledged append and leaves every import whole or absent, ${ROUNDS} kills in a row`, async () => {
    const { branch } = await createConversation(database.db, { title: "crash target", source: "api" });
    const acknowledged: string[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const server = await startNextServer({ databaseUrl: database.url });
      // Warm: the first request loads the routes and token ranks; the burst must meet a running server.
      await appendOnce(server, branch.id, `r${round}-warm`, acknowledged);
      const title = `crash-${provider}-r${round}`;
      let importAcknowledged = false;
      const importing = rawRequest(server.url, {
        method: "POST",
        path: `/api/conversations/import?title=${title}`,
        body: tauBench,
        headers: { "content-type": "application/json" },
      })
        .then((response) => {
          importAcknowledged = response.status === 201;
          if (response.status >= 500) throw new Error(`import answered ${response.status}: ${response.body}`);
        })
        .catch((error: unknown) => {
          if (!isConnectionLost(error)) throw error;
        });
      const appenders = Array.from({ length: APPENDERS }, (_, index) => appendUntilKilled(server, branch.id, `r${round}-a${index}`, acknowledged));
      // Rounds kill at different points: early in the import, mid-way, near or after its end.
      const before = acknowledged.length;
      await expect.poll(() => acknowledged.length - before, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(APPENDERS);
      // The last round lets the import finish first: an acknowledged import must be there whole.
      if (round === ROUNDS) await importing;
      else await new Promise((resolve) => setTimeout(resolve, (round - 1) * 400));
      await server.kill();
      await Promise.all([importing, ...appenders]);

      const history = await database.db.message.findMany({ where: { branchId: branch.id }, orderBy: { position: "asc" } });
      expect(history.map((row) => row.position)).toEqual(history.map((_, index) => index));
      const stored = new Set(history.map((row) => row.content));
      expect(acknowledged.filter((content) => !stored.has(content))).toEqual([]);
      const imported = await database.db.conversation.count({ where: { title: { startsWith: `${title} #` }, NOT: { source: { startsWith: STAGING_SOURCE_PREFIX } } } });
      expect([0, IMPORTED]).toContain(imported);
      if (importAcknowledged) expect(imported).toBe(IMPORTED);
      figures.push({ acknowledged: acknowledged.length, found: history.length, importAcknowledged, importedFound: imported });
    }
    expect(acknowledged.length).toBeGreaterThan(ROUNDS * APPENDERS);
    expect(figures.at(-1)).toMatchObject({ importAcknowledged: true, importedFound: IMPORTED });
    // After the last kill the server starts cleanly, and the next import deletes what the crashes staged.
    const server = await startNextServer({ databaseUrl: database.url });
    try {
      const health = await rawRequest(server.url, { path: "/api/health" });
      expect(health.status).toBe(200);
      const small = JSON.stringify([{ role: "user", content: "after the crashes" }]);
      expect((await rawRequest(server.url, { method: "POST", path: "/api/conversations/import", body: small, headers: { "content-type": "application/json" } })).status).toBe(201);
      expect(await database.db.conversation.count({ where: { source: { startsWith: STAGING_SOURCE_PREFIX } } })).toBe(0);
    } finally {
      await server.stop();
    }
  }, 300_000);
});
