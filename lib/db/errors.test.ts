import { describe, expect, it } from "vitest";
import {
  ConflictError,
  DatabaseError,
  DatabaseUnavailableError,
  InvalidArgumentError,
  mapDatabaseError,
  NotFoundError,
  type DatabaseDescription,
} from "./errors";

const sqlite: DatabaseDescription = { provider: "sqlite", location: "sqlite:/srv/lab.db" };
const postgres: DatabaseDescription = { provider: "postgres", location: "postgres://db:5432/lab" };

function prismaError(code: string, cause: Record<string, unknown> = {}, modelName = "Message") {
  return Object.assign(new Error(`\nInvalid call\n\n${code} happened`), { code, meta: { modelName, driverAdapterError: { cause } } });
}

describe("storage errors", () => {
  it("are recognised by marker, not by class identity, so checks hold across bundles", () => {
    const foreign = { [Symbol.for("context-lab.db.error")]: true, [Symbol.for("context-lab.db.error.not-found")]: true };
    expect(NotFoundError.isInstance(foreign)).toBe(true);
    expect(DatabaseError.isInstance(foreign)).toBe(true);
    expect(ConflictError.isInstance(foreign)).toBe(false);
    const error = new NotFoundError("branch", "b1");
    expect([error.resource, error.id, error.message]).toEqual(["branch", "b1", "branch 'b1' does not exist"]);
    expect(DatabaseError.isInstance(new InvalidArgumentError("position", "bad"))).toBe(true);
    expect(NotFoundError.isInstance(new Error("x"))).toBe(false);
  });
});

describe("mapDatabaseError", () => {
  it("maps unreachable servers and unopenable files to DatabaseUnavailableError naming the database", () => {
    const refused = mapDatabaseError(prismaError("P1001", { kind: "DatabaseNotReachable" }), postgres);
    expect(DatabaseUnavailableError.isInstance(refused) && refused.database).toBe("postgres://db:5432/lab");
    expect((refused as Error).message).toMatch(/^PostgreSQL database postgres:\/\/db:5432\/lab is unavailable: .*pg_ctlcluster/);
    const unopenable = mapDatabaseError(new TypeError("Cannot open database because the directory does not exist"), sqlite);
    expect((unopenable as Error).message).toMatch(/^SQLite database sqlite:\/srv\/lab\.db is unavailable: Cannot open database .*writable/);
    const busy = mapDatabaseError(prismaError("P1008", { kind: "SocketTimeout", originalCode: "SQLITE_BUSY" }), sqlite);
    expect(DatabaseUnavailableError.isInstance(busy)).toBe(true);
  });

  it("[RL-D3] maps a PostgreSQL shutting down, starting up or gone mid-query to DatabaseUnavailableError (503), never a 500", () => {
    const cases = [
      prismaError("P2010", { kind: "postgres", originalCode: "57P01", code: "57P01" }),
      prismaError("P2010", { kind: "postgres", originalCode: "57P03", code: "57P03" }),
      prismaError("P1017", { kind: "ConnectionClosed" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
      // What Prisma rethrows as it is when a pooled connection is ended under a query.
      Object.assign(new Error("terminating connection due to administrator command"), {
        name: "DriverAdapterError",
        cause: { originalCode: "57P01", kind: "postgres", code: "57P01", severity: "FATAL" },
      }),
    ];
    for (const error of cases) {
      const mapped = mapDatabaseError(error, postgres);
      expect(DatabaseUnavailableError.isInstance(mapped) && mapped.database).toBe("postgres://db:5432/lab");
    }
  });

  it("[RL-D2] marks serialization failures and deadlocks retryable, and only those", () => {
    for (const cause of [{ kind: "TransactionWriteConflict" }, { kind: "postgres", originalCode: "40P01" }, { kind: "postgres", originalCode: "40001" }]) {
      const mapped = mapDatabaseError(prismaError("P2010", cause), postgres);
      expect(ConflictError.isInstance(mapped) && mapped.retryable).toBe(true);
    }
    const duplicate = mapDatabaseError(prismaError("P2002", { kind: "UniqueConstraintViolation" }), postgres);
    expect(ConflictError.isInstance(duplicate) && duplicate.retryable).toBe(false);
  });

  it("says to migrate when tables are missing", () => {
    const missing = mapDatabaseError(prismaError("P2021", { kind: "TableDoesNotExist" }), sqlite);
    expect((missing as Error).message).toBe("sqlite database sqlite:/srv/lab.db has no Context Lab tables: run `npm run db migrate`");
  });

  it("maps unique violations and write conflicts to ConflictError", () => {
    const duplicate = mapDatabaseError(
      prismaError("P2002", { kind: "UniqueConstraintViolation", constraint: { fields: ['"branchId"', '"position"'] } }),
      postgres,
    );
    expect(ConflictError.isInstance(duplicate) && duplicate.message).toBe("message already exists with the same branchId and position");
    expect(ConflictError.isInstance(mapDatabaseError(prismaError("P2034", { kind: "TransactionWriteConflict" }), postgres))).toBe(true);
    expect(ConflictError.isInstance(mapDatabaseError(prismaError("P2010", { kind: "postgres", originalCode: "40P01" }), postgres))).toBe(true);
  });

  it("maps missing records to NotFoundError", () => {
    const missing = mapDatabaseError(prismaError("P2025", {}, "Exchange"), sqlite);
    expect(NotFoundError.isInstance(missing) && missing.resource).toBe("exchange");
  });

  it("passes storage errors and programming errors through unchanged", () => {
    const notFound = new NotFoundError("branch", "b");
    expect(mapDatabaseError(notFound, sqlite)).toBe(notFound);
    const bug = new TypeError("cannot read properties of undefined");
    expect(mapDatabaseError(bug, postgres)).toBe(bug);
    expect(DatabaseError.isInstance(mapDatabaseError(prismaError("P2000"), postgres))).toBe(true);
  });
});
