import { connection } from "next/server";
import { DatabaseUnavailableError, getConversations, getDatabase, type ConversationOverview } from "@/lib/db";
import { DatabaseStatus } from "@/components/ui/database-status";
import type { DatabaseOutage } from "@/lib/client/database-outage";
import { ConversationList } from "@/components/import/conversation-list";
import { PasteInspector } from "@/components/inspector/paste-inspector";
import { HomeHeader } from "@/components/import/home-header";
import { SessionImport } from "@/components/import/session-import";
import styles from "@/components/import/home.module.css";

async function loadConversations(): Promise<{ conversations: ConversationOverview[]; error?: string; outage?: DatabaseOutage }> {
  try {
    return { conversations: await getConversations(getDatabase(), { limit: 100 }) };
  } catch (error) {
    if (DatabaseUnavailableError.isInstance(error)) return { conversations: [], outage: { database: error.database, message: error.message } };
    return { conversations: [], error: error instanceof Error ? error.message : String(error) };
  }
}

/** `/`: import a conversation (or run the pipeline on it right here), the saved conversations, and an example to start from. */
export default async function HomePage() {
  // The list is read per request, never prerendered at build time.
  await connection();
  const { conversations, error, outage } = await loadConversations();
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
          {outage ? null : <ConversationList conversations={conversations} />}
          {outage ? null : <SessionImport />}
        </aside>
      </main>
    </div>
  );
}
