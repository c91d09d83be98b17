"use client";

import Link, { useLinkStatus } from "next/link";
import { useState } from "react";
import { apiClient } from "@/lib/client";
import type { LibraryConversation } from "@/lib/db";
import ui from "@/components/ui/ui.module.css";
import { SafeText } from "@/components/ui/safe-text";
import { safeLabel } from "@/components/ui/reveal-invisible";
import styles from "./library.module.css";

const number = (value: number) => value.toLocaleString("en");
const date = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });
const plural = (count: number, one: string, many = `${one}s`) => `${number(count)} ${count === 1 ? one : many}`;

/** While a conversation's page is on its way (the server builds its first result): said next to its title. */
function Opening() {
  const { pending } = useLinkStatus();
  return pending ? <span className={styles.opening}> · opening…</span> : null;
}

/**
 * A page of saved conversations with their counts, each opened by its title and deleted after a confirmation.
 * Titles are not prefetched: each would render a workspace on the server, fifty a page, while the user is searching.
 */
export function ConversationRows({ conversations, onDeleted }: { conversations: readonly LibraryConversation[]; onDeleted: () => void }) {
  const [deleted, setDeleted] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string>();
  const shown = conversations.filter((conversation) => !deleted.has(conversation.id));

  // The row leaves the list only once the server has confirmed the delete: removing it
  // earlier would show a list that a reload (or a failed delete) contradicts.
  const remove = async (conversation: LibraryConversation) => {
    if (!window.confirm(`Delete “${safeLabel(conversation.title)}” with its ${plural(conversation.branchCount, "branch", "branches")}? This cannot be undone.`))
      return;
    setError(undefined);
    setDeleting((previous) => new Set(previous).add(conversation.id));
    try {
      await apiClient.deleteConversation(conversation.id);
      setDeleted((previous) => new Set(previous).add(conversation.id));
      onDeleted();
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
    <>
      {error ? (
        <p role="alert" className={ui.notice} data-tone="danger">
          {error}
        </p>
      ) : null}
      <div className={styles.scroller}>
        <ul className={styles.list} aria-label="Saved conversations">
          {shown.map((conversation) => (
            <li key={conversation.id} className={styles.item} aria-busy={deleting.has(conversation.id) || undefined}>
              <Link href={`/c/${encodeURIComponent(conversation.id)}`} className={styles.itemTitle} prefetch={false}>
                <SafeText text={conversation.title} />
                <Opening />
              </Link>
              <span className={styles.itemMeta}>
                {plural(conversation.messageCount, "message")} · {plural(conversation.tokens, "token")} ·{" "}
                {plural(conversation.branchCount, "branch", "branches")} ·{" "}
                {conversation.failedCalls > 0 ? <span className={styles.failed}>{plural(conversation.failedCalls, "failed call")} · </span> : null}
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
      </div>
    </>
  );
}
