import path from "node:path";
import pg from "pg";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";

// Prisma 6.19 with its WebAssembly engines: the only mode that migrates offline here.
// PRISMA_TARGET is set by scripts/prisma.sh; a postgres URL picks the postgres schema.
const url = process.env.DATABASE_URL ?? "file:./data/context-lab.db";
const target = process.env.PRISMA_TARGET ?? (/^postgres(ql)?:\/\//.test(url) ? "postgres" : "sqlite");
const folder = target === "postgres" ? path.join("prisma", "postgres") : "prisma";

const NAME_OID = 19;
const TEXT_OID = 25;
const NAME_ARRAY_OID = 1003;
const TEXT_ARRAY_OID = 1009;

type Fields = { fields?: { dataTypeID: number }[] };

function nameColumnsAsText<T>(result: T): T {
  for (const field of (result as Fields | undefined)?.fields ?? []) {
    if (field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
    if (field.dataTypeID === NAME_ARRAY_OID) field.dataTypeID = TEXT_ARRAY_OID;
  }
  return result;
}

// The WebAssembly schema engine reads pg_catalog columns of type `name`, which
// @prisma/adapter-pg 6.19 refuses ("Column type 'name' could not be deserialized",
// prisma/prisma#27403), so every migrate command fails. pg already parses `name`
// values as strings; relabelling them as text lets the adapter pass them through.
class NameAsTextClient extends pg.Client {
  // @ts-expect-error pg's overloads cannot be re-declared one by one; this forwards all of them.
  override query(...args: unknown[]): unknown {
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error: unknown, result: unknown) => last(error, nameColumnsAsText(result));
    }
    const returned = (super.query as (...rest: unknown[]) => unknown)(...args);
    return returned instanceof Promise ? returned.then(nameColumnsAsText) : returned;
  }
}

function postgresAdapter() {
  // `?schema=` is Prisma's convention, not pg's. The migration SQL is unqualified,
  // so the session's search_path must point at the schema (the adapter option
  // only qualifies the query compiler's own queries).
  const connection = new URL(url);
  const schema = connection.searchParams.get("schema") ?? undefined;
  connection.searchParams.delete("schema");
  const options = schema ? `-c search_path="${schema.replaceAll('"', '""')}"` : undefined;
  return new PrismaPg({ connectionString: connection.toString(), options, Client: NameAsTextClient as unknown as typeof pg.Client }, { schema });
}

export default defineConfig({
  schema: path.join(folder, "schema.prisma"),
  migrations: { path: path.join(folder, "migrations") },
  engine: "js",
  experimental: { adapter: true },
  adapter: async () => (target === "postgres" ? postgresAdapter() : new PrismaBetterSQLite3({ url })),
});
