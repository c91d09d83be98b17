/** The window event the API client dispatches when the server answers 503 `database_unavailable`. */
export const DATABASE_UNAVAILABLE_EVENT = "context-lab:database-unavailable";

/** Which database is down and what the server said. */
export interface DatabaseOutage {
  /** `postgres://host:port/db` or `sqlite:/path/file.db`, credentials never included. */
  database: string;
  message: string;
}

/** Tells the page's database banner (if any) that the database is down. */
export function reportDatabaseOutage(outage: DatabaseOutage): void {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent<DatabaseOutage>(DATABASE_UNAVAILABLE_EVENT, { detail: outage }));
}
