import "server-only";

/**
 * Named storage errors. Each carries a `Symbol.for` marker so `isInstance`
 * holds across bundles (route handlers and server actions can load separate
 * copies of this module). `mapDatabaseError` is the one place where Prisma and
 * driver errors become these.
 */
const databaseMarker = Symbol.for("context-lab.db.error");

function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

/** Base class of every storage error. */
export class DatabaseError extends Error {
  private readonly [databaseMarker] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "DatabaseError";
  }

  static isInstance(error: unknown): error is DatabaseError {
    return hasMarker(error, databaseMarker);
  }
}

const notFoundMarker = Symbol.for("context-lab.db.error.not-found");

/** A row that does not exist, or is not visible from the branch asked about. */
export class NotFoundError extends DatabaseError {
  private readonly [notFoundMarker] = true;
  readonly resource: string;
  readonly id: string;

  constructor(resource: string, id: string, message?: string) {
    super(message ?? `${resource} '${id}' does not exist`);
    this.name = "NotFoundError";
    this.resource = resource;
    this.id = id;
  }

  static isInstance(error: unknown): error is NotFoundError {
    return hasMarker(error, notFoundMarker);
  }
}

const conflictMarker = Symbol.for("context-lab.db.error.conflict");

/** A write that collides with existing data or with a concurrent writer. */
export class ConflictError extends DatabaseError {
  private readonly [conflictMarker] = true;
  readonly resource: string;

  constructor(resource: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConflictError";
    this.resource = resource;
  }

  static isInstance(error: unknown): error is ConflictError {
    return hasMarker(error, conflictMarker);
  }
}

const invalidArgumentMarker = Symbol.for("context-lab.db.error.invalid-argument");

/** An argument the storage layer cannot accept (a fork position past the history, say). */
export class InvalidArgumentError extends DatabaseError {
  private readonly [invalidArgumentMarker] = true;
  readonly argument: string;

  constructor(argument: string, message: string) {
    super(message);
    this.name = "InvalidArgumentError";
    this.argument = argument;
  }

  static isInstance(error: unknown): error is InvalidArgumentError {
    return hasMarker(error, invalidArgumentMarker);
  }
}

const unavailableMarker = Symbol.for("context-lab.db.error.unavailable");

/** The database cannot be reached, opened or used; the message says which and what to check. */
export class DatabaseUnavailableError extends DatabaseError {
  private readonly [unavailableMarker] = true;
  /** The database, credentials removed: `sqlite:/abs/path.db` or `postgres://host:port/db?schema=s`. */
  readonly database: string;

  constructor(database: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
    this.database = database;
  }

  static isInstance(error: unknown): error is DatabaseUnavailableError {
    return hasMarker(error, unavailableMarker);
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
  meta?: { modelName?: unknown; target?: unknown; driverAdapterError?: { cause?: { kind?: unknown; constraint?: unknown; originalCode?: unknown } } };
}

const POSTGRES_START = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start";

function unavailable(database: DatabaseDescription, reason: string, cause: unknown): DatabaseUnavailableError {
  const check =
    database.provider === "postgres"
      ? `check that PostgreSQL is running and DATABASE_URL is right (to start a local one: ${POSTGRES_START})`
      : "check that the folder exists and is writable, and that DATABASE_URL is right";
  return new DatabaseUnavailableError(database.location, `${database.provider} database ${database.location}: ${reason}; ${check}`, {
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

function resourceOf(error: PrismaLikeError): string {
  const model = typeof error.meta?.modelName === "string" ? error.meta.modelName : "record";
  return model.charAt(0).toLowerCase() + model.slice(1);
}

function causeText(error: unknown): string {
  return error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) ?? error.message : String(error);
}

function uniqueFields(error: PrismaLikeError): string {
  const constraint = error.meta?.driverAdapterError?.cause?.constraint as { fields?: unknown } | undefined;
  const fields = Array.isArray(constraint?.fields) ? constraint.fields : Array.isArray(error.meta?.target) ? error.meta.target : [];
  return fields.length > 0 ? fields.map((field) => String(field).replaceAll('"', "")).join(" and ") : "unique key";
}

const UNREACHABLE_CODES = new Set(["P1000", "P1001", "P1002", "P1003", "P1010", "P1011", "P1017"]);
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
  const cause = prisma.meta?.driverAdapterError?.cause;
  const kind = cause?.kind;
  const message = typeof prisma.message === "string" ? prisma.message : String(error);

  if ((code !== undefined && UNREACHABLE_CODES.has(code)) || kind === "DatabaseNotReachable" || kind === "DatabaseDoesNotExist") {
    return unavailable(database, causeText(error), error);
  }
  if (cause?.originalCode === "SQLITE_BUSY") {
    return unavailable(database, "another connection held the write lock past the busy timeout (SQLITE_BUSY)", error);
  }
  if (code === "P2021" || code === "P2022" || kind === "TableDoesNotExist") return notMigrated(database, error);
  if (database.provider === "sqlite" && SQLITE_OPEN_FAILURES.test(message)) return unavailable(database, causeText(error), error);
  if (code === "P2025") return new NotFoundError(resourceOf(prisma), "?", `${resourceOf(prisma)} not found: ${causeText(error)}`);
  if (code === "P2003") {
    return new NotFoundError(resourceOf(prisma), "?", `a record that ${resourceOf(prisma)} refers to does not exist`);
  }
  if (code === "P2002") {
    return new ConflictError(resourceOf(prisma), `${resourceOf(prisma)} already exists with the same ${uniqueFields(prisma)}`, {
      cause: error,
    });
  }
  // A PostgreSQL deadlock or serialization failure: the caller may retry.
  if (code === "P2034" || kind === "TransactionWriteConflict" || cause?.originalCode === "40P01") {
    return new ConflictError(resourceOf(prisma), `a concurrent write collided with this one; retry it`, { cause: error });
  }
  if (code !== undefined && /^P\d{4}$/.test(code)) return new DatabaseError(`database error ${code}: ${causeText(error)}`, { cause: error });
  return error;
}
