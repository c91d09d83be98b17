"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { ApiError } from "@/lib/client";
import { localAgentsClient, type LocalAgentsClient } from "@/lib/local-agents/client";
import type { LocalAgentsList, LocalSessionEntry } from "@/lib/local-agents/types";
import ui from "@/components/ui/ui.module.css";
import { SessionTable } from "./data-table";
import { SearchedFolders } from "./searched-folders";
import { PageShell } from "@/components/ui/page-shell";
import styles from "./local-agents.module.css";

export interface LocalAgentsPageProps {
  initial: LocalAgentsList;
  client?: LocalAgentsClient;
  /** How often the list is read again, so live badges and new sessions show up. */
  refreshMs?: number;
}

function messageOf(error: unknown): string {
  if (ApiError.isInstance(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** `/agents`: the sessions of the coding agents on this machine, to import or follow. */
export function LocalAgentsPage({ initial, client = localAgentsClient, refreshMs = 10_000 }: LocalAgentsPageProps) {
  const router = useRouter();
  const [list, setList] = useState(initial);
  const [busyPath, setBusyPath] = useState<string | null>(null);
  const [error, setError] = useState<string>();

  const refresh = useCallback(async () => {
    try {
      setList(await client.list());
    } catch (caught) {
      setError(messageOf(caught));
    }
  }, [client]);

  useEffect(() => {
    const timer = setInterval(() => void refresh(), refreshMs);
    return () => clearInterval(timer);
  }, [refresh, refreshMs]);

  const onImport = useCallback(
    async (session: LocalSessionEntry) => {
      setBusyPath(session.path);
      setError(undefined);
      try {
        await client.importSession(session.path);
        await refresh();
      } catch (caught) {
        setError(messageOf(caught));
      } finally {
        setBusyPath(null);
      }
    },
    [client, refresh],
  );

  const onFollow = useCallback(
    async (session: LocalSessionEntry) => {
      setBusyPath(session.path);
      setError(undefined);
      try {
        const { conversationIds } = await client.follow(session.path);
        router.push(`/c/${encodeURIComponent(conversationIds[0])}`);
      } catch (caught) {
        setError(messageOf(caught));
        setBusyPath(null);
      }
    },
    [client, router],
  );

  return (
    <PageShell
      title="Local agents"
      lead={
        <>
          The sessions Claude Code, Codex and Gemini CLI have written on this machine. Import one to inspect it, or follow it: it is imported and every turn the
          agent writes afterwards appears in the conversation as it happens. The files are only read, never changed.
        </>
      }
    >
      {error ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {error}
        </p>
      ) : null}
      {list.sessions.length === 0 ? (
        <section aria-label="No sessions found">
          <p>No session files were found in these folders:</p>
          <SearchedFolders roots={list.roots} />
        </section>
      ) : (
        <>
          <SessionTable
            sessions={list.sessions}
            busyPath={busyPath}
            onImport={(session) => void onImport(session)}
            onFollow={(session) => void onFollow(session)}
          />
          <details>
            <summary className={styles.muted}>Folders searched</summary>
            <SearchedFolders roots={list.roots} />
          </details>
        </>
      )}
    </PageShell>
  );
}

/** What the page says when this server does not offer the sessions of this machine. */
export function LocalAgentsOff({ message }: { message: string }) {
  return (
    <PageShell title="Local agents">
      <p role="status" className={ui.notice} data-tone="warning">
        {message}
      </p>
    </PageShell>
  );
}
