"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { DATABASE_UNAVAILABLE_EVENT, type DatabaseOutage } from "@/lib/client/database-outage";
import styles from "./ui.module.css";

/** How often the banner asks `/api/health` whether the database is back. */
const RETRY_MS = 2_000;

function describe(outage: DatabaseOutage): string {
  const name = outage.database.startsWith("postgres") ? "PostgreSQL" : "SQLite";
  return `${name} ${outage.database.replace(/^sqlite:/, "")}`;
}

async function checkHealth(): Promise<DatabaseOutage | null> {
  const response = await fetch("/api/health", { headers: { accept: "application/json" }, cache: "no-store" });
  if (response.ok) return null;
  const body = (await response.json().catch(() => null)) as { error?: { message?: string; database?: string } } | null;
  return { database: body?.error?.database ?? "the database", message: body?.error?.message ?? `health check answered ${response.status}` };
}

/**
 * "Database unavailable, retrying", naming the database (the SQLite file or
 * the PostgreSQL host), while the server cannot reach it. Shown when a page
 * rendered without it (`initial`) or an API call answered 503; it asks the
 * server every two seconds and, once the database answers, hides itself and
 * reloads the page's data. No restart, no reload by hand.
 */
export function DatabaseStatus({ initial = null }: { initial?: DatabaseOutage | null }) {
  const router = useRouter();
  const [outage, setOutage] = useState<DatabaseOutage | null>(initial);

  useEffect(() => {
    const onOutage = (event: Event) => setOutage((event as CustomEvent<DatabaseOutage>).detail);
    window.addEventListener(DATABASE_UNAVAILABLE_EVENT, onOutage);
    return () => window.removeEventListener(DATABASE_UNAVAILABLE_EVENT, onOutage);
  }, []);

  useEffect(() => {
    if (!outage) return;
    let stopped = false;
    const timer = setInterval(() => {
      void checkHealth()
        .then((current) => {
          if (stopped) return;
          setOutage(current);
          if (!current) router.refresh();
        })
        .catch(() => undefined);
    }, RETRY_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [outage, router]);

  if (!outage) return null;
  return (
    <div role="alert" className={styles.databaseStatus} data-testid="database-status">
      <strong>Database unavailable, retrying</strong> · {describe(outage)}
      <span className={styles.databaseStatusDetail}>{outage.message}</span>
    </div>
  );
}
