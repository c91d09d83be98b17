import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import { createDatabase } from "@/lib/db";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

describe.each(TEST_PROVIDERS)("GET /api/health (%s)", (provider) => {
  useApiTestDatabase(provider);

  it("answers ok with the database provider", async () => {
    const { status, body } = await call(healthRoute.GET);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, database: provider });
  });
});

describe("GET /api/health without a usable database", () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-health-"));
  afterEach(() => resetDatabaseForTests());

  it("answers 503 with what to do for a database without tables", async () => {
    const db = createDatabase(`file:${path.join(folder, "empty.db")}`);
    useDatabaseForTests(db);
    try {
      const { status, body } = await call(healthRoute.GET);
      expect(status).toBe(503);
      expect(body).toMatchObject({ ok: false, database: "sqlite", error: { code: "database_unavailable" } });
      expect(body.error.message).toContain("npm run db migrate");
    } finally {
      await db.$disconnect();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("answers 503 for a PostgreSQL server that does not answer", async () => {
    const db = createDatabase("postgresql://postgres@127.0.0.1:1/test");
    useDatabaseForTests(db);
    try {
      const { status, body } = await call(healthRoute.GET);
      expect(status).toBe(503);
      expect(body).toMatchObject({ ok: false, database: "postgres", error: { code: "database_unavailable" } });
      expect(body.error.message).toContain("127.0.0.1:1");
    } finally {
      await db.$disconnect();
    }
  });
});
