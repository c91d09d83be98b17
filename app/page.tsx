import { connection } from "next/server";
import { DatabaseUnavailableError, getConversationPage, getDatabase, type LibraryPageResult } from "@/lib/db";
import { readLibraryQuery, type LibraryQuery } from "@/lib/library/query";
import { DatabaseStatus } from "@/components/ui/database-status";
import type { DatabaseOutage } from "@/lib/client/database-outage";
import { ConversationLibrary } from "@/components/library/library";
import { PasteInspector } from "@/components/inspector/paste-inspector";
import { HomeHeader } from "@/components/import/home-header";
import { SessionImport } from "@/components/import/session-import";
import styles from "@/components/import/home.module.css";

const NONE: LibraryPageResult = { conversations: [], total: 0 };

async function loadConversations(query: LibraryQuery): Promise<{ page: LibraryPageResult; error?: string; outage?: DatabaseOutage }> {
  try {
    return { page: await getConversationPage(getDatabase(), query) };
  } catch (error) {
    if (DatabaseUnavailableError.isInstance(error)) return { page: NONE, outage: { database: error.database, message: error.message } };
    return { page: NONE, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * `/`: import a conversation (or run the pipeline on it right here), the saved conversations (one page of the
 * library, its search, filters and sort in the URL: lib/library), and an example to start from.
 */
export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // The list is read per request, never prerendered at build time.
  await connection();
  const { query } = readLibraryQuery(await searchParams);
  const { page, error, outage } = await loadConversations(query);
  return (
    <div className={styles.home}>
      <DatabaseStatus initial={outage ?? null} />
      <HomeHeader />
      <main className={styles.main}>
        <section className={styles.import} aria-labelledby="import-title">
          <h2 id="import-title">Inspect a conversation</h2>
          <p className={styles.lead}>
            Paste an agent conversation and see what the context pipeline would send to the model: rounds, tool chains, what each processor offloads, compresses
            or drops, and the budget.
          </p>
          <PasteInspector />
        </section>
        <aside className={styles.aside}>
          {error ? (
            <p role="alert" className={styles.dbError}>
              Saved conversations are unavailable: {error}
            </p>
          ) : null}
          {outage ? null : <ConversationLibrary conversations={page.conversations} total={page.total} query={query} />}
          {outage ? null : <SessionImport />}
        </aside>
      </main>
    </div>
  );
}
