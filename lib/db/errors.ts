import "server-only";
import { MarkedError } from "@/lib/context/light";

/**
 * Named storage errors (`X.isInstance(error)` holds across bundles: MarkedError).
 * `mapDatabaseError` is the one place where Prisma and driver errors become these.
 */

/** Base class of every storage error. */
export class DatabaseError extends MarkedError {
  static override readonly marker: symbol = Symbol.for("context-lab.db.error");

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DatabaseError";
  }
}

/** A row that does not exist, or is not visible from the branch asked about. */
export class NotFoundError extends DatabaseError {
  static override readonly marker: symbol = Symbol.for("context-lab.db.error.not-found");
  readonly resource: string;
  readonly id: string;

  constructor(resource: string, id: string, message?: string) {
    super(message ?? `${resource} '${id}' does not exist`);
    this.name = "NotFoundError";
    this.resource = resource;
    this.id = id;
  }
}

/** A write that collides with existing data or with a concurrent writer. */
export class ConflictError extends DatabaseError {
  static override readonly marker: symbol = Symbol.for("context-lab.db.error.conflict");
  readonly resource: string;
  /** A serialization failure or deadlock: the transaction was rolled back whole and may simply run again. */
  readonly retryable: boolean;

  constructor(resource: string, message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(message, options);
    this.name = "ConflictError";
    this.resource = resource;
    this.retryable = options?.retryable ?? false;
  }
}

/** An argument the storage layer cannot accept (a fork position past the history, say). */
export class InvalidArgumentError extends DatabaseError {
  static override readonly marker: symbol = Symbol.for("context-lab.db.error.invalid-argument");
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(message);
    this.name = "InvalidArgumentError";
    this.argument = argument;
  }
}

/** The database cannot be reached, opened or used; the message says which and what to check. */
export class DatabaseUnavailableError extends DatabaseError {
  static override readonly marker: symbol = Symbol.for("context-lab.db.error.unavailable");
  /** The database, credentials removed: `sqlite:/abs/path.db` or `postgres://host:port/db?schema=s`. */
  readonly database: string;

  constructor(database: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
    this.database = database;
  }
}

/** What `mapDatabaseError` needs to know to word its messages. */
export interface DatabaseDescription {
  provider: "sqlite" | "postgres";
  /** Credentials removed. */
  location: string;
}

interface PrismaLikeError {
  code?: unknown;
  message?: unknown;
  meta?: {
    modelName?: unknown;
    target?: unknown;
    driverAdapterError?: { cause?: { kind?: unknown; constraint?: unknown; originalCode?: unknown; code?: unknown } };
  };
}

const POSTGRES_START = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

function unavailable(database: DatabaseDescription, reason: string, cause: unknown): DatabaseUnavailableError {
  const check =
    database.provider === "postgres"
      ? `check that PostgreSQL is running and DATABASE_URL is right (to start a local one: ${POSTGRES_START})`
      : "check that the folder exists and is writable, and that DATABASE_URL is right";
  const name = database.provider === "postgres" ? "PostgreSQL" : "SQLite";
  return new DatabaseUnavailableError(database.location, `${name} database ${database.location} is unavailable: ${reason}; ${check}`, {
    cause,
  });
}

function notMigrated(database: DatabaseDescription, cause: unknown): DatabaseUnavailableError {
  const url = database.provider === "postgres" ? "DATABASE_URL=<that url> " : "";
  return new DatabaseUnavailableError(
    database.location,
    `${database.provider} database ${database.location} has no Context Lab tables: run \`${url}npm run db migrate\``,
    { cause },
  );
}

/** A model's name as errors say it: `Conversation` → `conversation`. */
function resourceNamed(model: string): string {
  return model.charAt(0).toLowerCase() + model.slice(1);
}

function resourceOf(error: PrismaLikeError): string {
  return resourceNamed(typeof error.meta?.modelName === "string" ? error.meta.modelName : "record");
}

function causeText(error: unknown): string {
  return error instanceof Error ? (error.message.split("\n").filter(Boolean).at(-1) ?? error.message) : String(error);
}

function uniqueFields(error: PrismaLikeError): unknown[] {
  const constraint = error.meta?.driverAdapterError?.cause?.constraint as { fields?: unknown } | undefined;
  return Array.isArray(constraint?.fields) ? constraint.fields : Array.isArray(error.meta?.target) ? error.meta.target : [];
}

/** A write refused by a unique key: `<resource> already exists with the same <fields>`, as Prisma and the driver report it alike. */
function uniqueConflict(resource: string, fields: readonly unknown[], cause: unknown): ConflictError {
  const named = fields.length > 0 ? fields.map((field) => String(field).replaceAll('"', "")).join(" and ") : "unique key";
  return new ConflictError(resource, `${resource} already exists with the same ${named}`, { cause });
}

/**
 * The table and columns of a unique key a driver refused, as its own error
 * says them (statements sent without Prisma): SQLite's message names
 * `Table.column`, PostgreSQL's error its table and, in its detail, the key.
 */
function uniqueViolationOf(error: unknown): { resource: string; fields: string[] } | null {
  const { message, table, detail } = (typeof error === "object" && error !== null ? error : {}) as { message?: unknown; table?: unknown; detail?: unknown };
  const sqlite = typeof message === "string" ? /constraint failed: ((?:\w+\.\w+(?:, )?)+)/.exec(message) : null;
  const columns = sqlite
    ? sqlite[1].split(", ").map((column) => column.split("."))
    : typeof table === "string" && typeof detail === "string"
      ? (/^Key \((.+?)\)=/
          .exec(detail)?.[1]
          .split(", ")
          .map((column) => [table, column]) ?? null)
      : null;
  if (!columns || columns.length === 0) return null;
  return { resource: resourceNamed(columns[0][0]), fields: columns.map(([, column]) => column) };
}

const UNREACHABLE_CODES = new Set(["P1000", "P1001", "P1002", "P1003", "P1010", "P1011", "P1017"]);
/** Driver adapter kinds of a database that cannot be reached or used right now. */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "DatabaseDoesNotExist", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/**
 * PostgreSQL codes of a server going away or not yet there: admin or crash
 * shutdown (57P01, 57P02), still starting (57P03), connection failures (08*),
 * too many connections (53300).
 */
const POSTGRES_UNAVAILABLE = /^(57P0[123]|08\w{3}|53300)$/;
/** pg's own words when a socket dies under a query or a connection cannot be had. */
const CONNECTION_LOST =
  /Connection terminated|ECONNREFUSED|ECONNRESET|EPIPE|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (shutting down|starting up)|terminating connection due to administrator command/i;
/** Serialization failure and deadlock: rolled back whole, safe to run again. */
const POSTGRES_RETRYABLE = new Set(["40001", "40P01"]);
const SQLITE_OPEN_FAILURES = /unable to open database|cannot open database|directory does not exist|readonly database|disk i\/o error/i;

/**
 * Maps what a Prisma call throws to a storage error. Storage errors and
 * anything unrecognised (a programming error) are returned unchanged, so a
 * bug is never disguised as a database problem.
 */
export function mapDatabaseError(error: unknown, database: DatabaseDescription): unknown {
  if (DatabaseError.isInstance(error)) return error;
  const prisma = (typeof error === "object" && error !== null ? error : {}) as PrismaLikeError;
  const code = typeof prisma.code === "string" ? prisma.code : undefined;
  // Prisma wraps driver errors in `meta.driverAdapterError`, except where it rethrows the adapter's own DriverAdapterError (its `cause`).
  const ownCause = (error as { cause?: unknown } | null)?.cause;
  const cause =
    prisma.meta?.driverAdapterError?.cause ??
    (typeof ownCause === "object" && ownCause !== null && "kind" in ownCause
      ? (ownCause as NonNullable<NonNullable<PrismaLikeError["meta"]>["driverAdapterError"]>["cause"])
      : undefined);
  const kind = cause?.kind;
  const message = typeof prisma.message === "string" ? prisma.message : String(error);

  const driverCode = typeof cause?.originalCode === "string" ? cause.originalCode : typeof cause?.code === "string" ? cause.code : undefined;
  const ownCode = typeof (error as { code?: unknown })?.code === "string" ? String((error as { code: unknown }).code) : undefined;
  if (
    (code !== undefined && UNREACHABLE_CODES.has(code)) ||
    (typeof kind === "string" && UNREACHABLE_KINDS.has(kind)) ||
    (database.provider === "postgres" &&
      (POSTGRES_UNAVAILABLE.test(driverCode ?? "") || POSTGRES_UNAVAILABLE.test(ownCode ?? "") || CONNECTION_LOST.test(message)))
  ) {
    return unavailable(database, causeText(error), error);
  }
  // Prisma's adapter reports the driver's code as `originalCode`; the journal's direct statements (DB-J1) throw the driver's own error.
  if (cause?.originalCode === "SQLITE_BUSY" || ownCode === "SQLITE_BUSY") {
    return unavailable(database, "another connection held the write lock past the busy timeout (SQLITE_BUSY)", error);
  }
  if (code === "P2021" || code === "P2022" || kind === "TableDoesNotExist") return notMigrated(database, error);
  // The driver's own codes, from statements sent without Prisma (DB-J1).
  if (ownCode === "23505" || ownCode === "SQLITE_CONSTRAINT_PRIMARYKEY" || ownCode === "SQLITE_CONSTRAINT_UNIQUE") {
    const violated = uniqueViolationOf(error);
    if (violated) return uniqueConflict(violated.resource, violated.fields, error);
    return new ConflictError("record", `a record with the same key already exists: ${causeText(error)}`, { cause: error });
  }
  if (ownCode === "23503" || ownCode === "SQLITE_CONSTRAINT_FOREIGNKEY") {
    return new NotFoundError("record", "?", `a record it refers to does not exist: ${causeText(error)}`);
  }
  if (database.provider === "sqlite" && SQLITE_OPEN_FAILURES.test(message)) return unavailable(database, causeText(error), error);
  if (code === "P2025") return new NotFoundError(resourceOf(prisma), "?", `${resourceOf(prisma)} not found: ${causeText(error)}`);
  if (code === "P2003") {
    return new NotFoundError(resourceOf(prisma), "?", `a record that ${resourceOf(prisma)} refers to does not exist`);
  }
  if (code === "P2002") {
    return uniqueConflict(resourceOf(prisma), uniqueFields(prisma), error);
  }
  // A PostgreSQL deadlock or serialization failure: runTransaction runs the transaction again.
  if (code === "P2034" || kind === "TransactionWriteConflict" || POSTGRES_RETRYABLE.has(driverCode ?? "") || POSTGRES_RETRYABLE.has(ownCode ?? "")) {
    return new ConflictError(resourceOf(prisma), `a concurrent write collided with this one; retry it`, { cause: error, retryable: true });
  }
  if (code !== undefined && /^P\d{4}$/.test(code)) return new DatabaseError(`database error ${code}: ${causeText(error)}`, { cause: error });
  return error;
}
