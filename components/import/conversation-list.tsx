"use client";

import Link, { useLinkStatus } from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiClient } from "@/lib/client";
import type { ConversationOverview } from "@/lib/db";
import ui from "@/components/ui/ui.module.css";
import { ExampleButton } from "./example-button";
import styles from "./import.module.css";
import { SafeText } from "@/components/ui/safe-text";
import { safeLabel } from "@/components/ui/reveal-invisible";

const number = (value: number) => value.toLocaleString("en");
const date = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** While a conversation's page is on its way (the server builds its first result): said next to its title. */
function Opening() {
  const { pending } = useLinkStatus();
  return pending ? <span className={styles.opening}> · opening…</span> : null;
}

/** The saved conversations with their counts, each opened by its title and deleted after a confirmation; an empty state with the example. */
export function ConversationList({ conversations }: { conversations: readonly ConversationOverview[] }) {
  const router = useRouter();
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string>();
  const shown = conversations.filter((conversation) => !deleted.has(conversation.id));

  // The row leaves the list only once the server has confirmed the delete: removing it
  // earlier would show a list that a reload (or a failed delete) contradicts.
  const remove = async (conversation: ConversationOverview) => {
    if (
      !window.confirm(
        `Delete “${safeLabel(conversation.title)}” with its ${conversation.branchCount} branch${conversation.branchCount === 1 ? "" : "es"}? This cannot be undone.`,
      )
    )
      return;
    setError(undefined);
    setDeleting((previous) => new Set(previous).add(conversation.id));
    try {
      await apiClient.deleteConversation(conversation.id);
      setDeleted((previous) => new Set(previous).add(conversation.id));
      router.refresh();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setDeleting((previous) => {
        const next = new Set(previous);
        next.delete(conversation.id);
        return next;
      });
    }
  };

  return (
    <section className={styles.saved} aria-labelledby="saved-title">
      <h2 id="saved-title">Saved conversations</h2>
      {error ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {error}
        </p>
      ) : null}
      {shown.length === 0 ? (
        <div className={styles.emptyState}>
          <p>
            <strong>No conversations yet.</strong> Paste one on the left, drop a file, or start with a real airline-support trajectory from tau-bench: 62
            messages, tool chains and all.
          </p>
          <ExampleButton />
        </div>
      ) : (
        <>
          <ul className={styles.list} aria-label="Saved conversations">
            {shown.map((conversation) => (
              <li key={conversation.id} className={styles.item} aria-busy={deleting.has(conversation.id) || undefined}>
                <Link href={`/c/${encodeURIComponent(conversation.id)}`} className={styles.itemTitle}>
                  <SafeText text={conversation.title} />
                  <Opening />
                </Link>
                <span className={styles.itemMeta}>
                  {number(conversation.messageCount)} messages · {number(conversation.branchCount)} branch{conversation.branchCount === 1 ? "" : "es"} ·{" "}
                  {conversation.source} ·{" "}
                  <time dateTime={conversation.updatedAt} suppressHydrationWarning>
                    {date.format(new Date(conversation.updatedAt))}
                  </time>
                </span>
                <button
                  type="button"
                  className={ui.button}
                  data-variant="ghost"
                  aria-label={`Delete ${conversation.title}`}
                  disabled={deleting.has(conversation.id)}
                  onClick={() => void remove(conversation)}
                >
                  {deleting.has(conversation.id) ? "Deleting…" : "Delete"}
                </button>
              </li>
            ))}
          </ul>
          <div className={styles.more}>
            <ExampleButton variant="plain" />
          </div>
        </>
      )}
    </section>
  );
}
