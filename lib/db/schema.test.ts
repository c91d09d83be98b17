import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/tests/support/db";

const root = path.resolve(import.meta.dirname, "..", "..");
const schemaFiles = {
  sqlite: path.join(root, "prisma", "schema.prisma"),
  postgres: path.join(root, "prisma", "postgres", "schema.prisma"),
} as const;

/** The models of a schema file, without comments, generator/datasource blocks or provider-specific attributes. */
function modelsOf(file: string): string {
  return fs
    .readFileSync(file, "utf8")
    .replace(/\/\/.*$/gm, "")
    .replace(/^(generator|datasource)\s+\w+\s*\{[^}]*\}/gm, "")
    .replace(/@db\.\w+(\([^)]*\))?/g, "")
    .split("\n")
    .map((line) => line.trim().replace(/\s+/g, " "))
    .filter(Boolean)
    .join("\n");
}

interface ModelShape {
  name: string;
  columns: string[];
  /** Column lists of @@unique/@@index and single-field @unique. */
  indexes: string[][];
}

const SCALARS = new Set(["String", "Int", "Boolean", "DateTime", "Float", "BigInt", "Decimal", "Json", "Bytes"]);

function shapesOf(file: string): ModelShape[] {
  const models = [...modelsOf(file).matchAll(/^model (\w+) \{\n([\s\S]*?)\n\}/gm)];
  return models.map(([, name, body]) => {
    const lines = body.split("\n");
    const columns = lines.flatMap((line) => {
      const [field, type] = line.split(" ");
      return type !== undefined && SCALARS.has(type.replace(/[?[\]]/g, "")) ? [field] : [];
    });
    const indexes = [
      ...lines.flatMap((line) => [...line.matchAll(/^@@(?:unique|index)\(\[([^\]]*)\]/g)].map((match) => match[1].split(",").map((field) => field.trim()))),
      ...lines.filter((line) => / @unique\b/.test(line)).map((line) => [line.split(" ")[0]]),
    ];
    return { name, columns, indexes };
  });
}

describe("prisma schemas", () => {
  it("declare identical models for SQLite and PostgreSQL", () => {
    const sqlite = modelsOf(schemaFiles.sqlite);
    expect(sqlite).toMatch(/^model Conversation \{/m);
    expect(modelsOf(schemaFiles.postgres)).toBe(sqlite);
  });

  it("generate into separate clients with the query compiler", () => {
    for (const [provider, file] of Object.entries(schemaFiles)) {
      const text = fs.readFileSync(file, "utf8");
      expect(text).toMatch(/provider\s*=\s*"prisma-client"/);
      expect(text).toMatch(/engineType\s*=\s*"client"/);
      expect(text).toMatch(new RegExp(`output\\s*=\\s*".*lib/db/generated/${provider}"`));
      expect(text).toMatch(/url\s*=\s*env\("DATABASE_URL"\)/);
    }
  });

  it("have a migration lock naming their provider", () => {
    expect(fs.readFileSync(path.join(root, "prisma", "migrations", "migration_lock.toml"), "utf8")).toMatch(/provider = "sqlite"/);
    expect(fs.readFileSync(path.join(root, "prisma", "postgres", "migrations", "migration_lock.toml"), "utf8")).toMatch(/provider = "postgresql"/);
  });
});

describe.each(TEST_PROVIDERS)("committed %s migrations", (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.cleanup();
  });

  async function tableShape(table: string): Promise<{ columns: string[]; indexes: string[][] }> {
    if (provider === "sqlite") {
      const columns = await database.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_table_info('${table}')`);
      const indexNames = await database.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_index_list('${table}')`);
      const indexes = await Promise.all(
        indexNames.map(async ({ name }) =>
          (await database.db.$queryRawUnsafe<{ name: string }[]>(`SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`)).map((column) => column.name),
        ),
      );
      return { columns: columns.map((column) => column.name), indexes };
    }
    const columns = await database.db.$queryRawUnsafe<{ name: string }[]>(
      `SELECT column_name::text AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
      table,
    );
    const indexes = await database.db.$queryRawUnsafe<{ columns: string }[]>(
      `SELECT array_to_string(ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.ord), ',') AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relname = $1`,
      table,
    );
    return { columns: columns.map((column) => column.name), indexes: indexes.map((index) => index.columns.split(",")) };
  }

  it("create every column and index the schema declares", async () => {
    const shapes = shapesOf(schemaFiles[provider]);
    expect(shapes.map((shape) => shape.name)).toEqual([
      "Conversation",
      "Branch",
      "Message",
      "Summary",
      "Checkpoint",
      "OffloadedContent",
      "Artifact",
      "Exchange",
      "CustomModel",
      "Policy",
      "ProxyCall",
      "LibraryEntry",
      "SearchTerm",
    ]);
    for (const shape of shapes) {
      const actual = await tableShape(shape.name);
      expect(actual.columns.sort(), shape.name).toEqual([...shape.columns].sort());
      for (const index of shape.indexes) expect(actual.indexes, `${shape.name} index on ${index.join(", ")}`).toContainEqual(index);
    }
  });
});
