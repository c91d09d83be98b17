import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import Sqlite from "better-sqlite3";
import pg from "pg";
import { afterEach, beforeEach } from "vitest";
import { createDatabase, type Database } from "@/lib/db/client";

export type TestProvider = "sqlite" | "postgres";
export const TEST_PROVIDERS: readonly TestProvider[] = ["sqlite", "postgres"];

export interface TestDatabase {
  provider: TestProvider;
  /** The DATABASE_URL of this database. */
  url: string;
  db: Database;
  /** Disconnects every client made by `connect` and drops the database. */
  cleanup(): Promise<void>;
  /** Another client on the same database (a restart, a second process). */
  connect(): Database;
}

/** The PostgreSQL database test schemas are created in; TEST_DATABASE_URL overrides it. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";
const root = path.resolve(import.meta.dirname, "..", "..");

/** The committed migrations' SQL, oldest first: tests run what deployments run. */
export function migrationSql(provider: TestProvider): string[] {
  const folder = path.join(root, "prisma", ...(provider === "postgres" ? ["postgres"] : []), "migrations");
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => fs.readFileSync(path.join(folder, name, "migration.sql"), "utf8"));
}

function withClients(provider: TestProvider, url: string, drop: () => Promise<void>): TestDatabase {
  const clients: Database[] = [];
  const connect = () => {
    const client = createDatabase(url);
    clients.push(client);
    return client;
  };
  return {
    provider,
    url,
    db: connect(),
    connect,
    cleanup: async () => {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await drop();
    },
  };
}

function createSqliteTestDatabase(): TestDatabase {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-db-"));
  const file = path.join(folder, "test.db");
  const raw = new Sqlite(file);
  try {
    for (const sql of migrationSql("sqlite")) raw.exec(sql);
  } finally {
    raw.close();
  }
  return withClients("sqlite", `file:${file}`, async () => fs.rmSync(folder, { recursive: true, force: true }));
}

async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(
      `PostgreSQL is required for the database tests but ${TEST_POSTGRES_URL} is unreachable (${(error as Error).message}). ` +
        `Start it with: ${START_POSTGRES}`,
      { cause: error },
    );
  }
  return client;
}

/** Schemas older than this were left by a run that died before its cleanup. */
const STALE_SCHEMA_MS = 60 * 60 * 1000;
let swept = false;

async function dropStaleSchemas(admin: pg.Client): Promise<void> {
  if (swept) return;
  swept = true;
  const { rows } = await admin.query<{ name: string }>(`SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 't\\_%'`);
  for (const { name } of rows) {
    const created = /^t_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
    if (created && Date.now() - parseInt(created[1], 36) > STALE_SCHEMA_MS) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  }
}

async function createPostgresTestDatabase(): Promise<TestDatabase> {
  // The creation time in the name lets a later run drop what a killed run left behind.
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = await adminClient();
  try {
    await dropStaleSchemas(admin);
    await admin.query(`CREATE SCHEMA "${schema}"`);
    await admin.query(`SET search_path TO "${schema}"`);
    for (const sql of migrationSql("postgres")) await admin.query(sql);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set("schema", schema);
  return withClients("postgres", url.toString(), async () => {
    const dropper = await adminClient();
    try {
      await dropper.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await dropper.end();
    }
  });
}

/**
 * A migrated, isolated, real database: SQLite in a fresh temporary file, or
 * PostgreSQL in a fresh schema of the `test` database. Call `cleanup()` when
 * done. PostgreSQL being down is an error, never a skip.
 */
export async function createTestDatabase(provider: TestProvider): Promise<TestDatabase> {
  return provider === "sqlite" ? createSqliteTestDatabase() : createPostgresTestDatabase();
}

/**
 * A fresh database for every test of the enclosing `describe`:
 * `const test = useTestDatabase(provider)`, then `test.db` inside a test.
 */
export function useTestDatabase(provider: TestProvider): { readonly db: Database; readonly current: TestDatabase } {
  let current: TestDatabase | undefined;
  beforeEach(async () => {
    current = await createTestDatabase(provider);
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  const get = () => {
    if (!current) throw new Error("useTestDatabase: the database exists only inside a test");
    return current;
  };
  return {
    get db() {
      return get().db;
    },
    get current() {
      return get();
    },
  };
}
