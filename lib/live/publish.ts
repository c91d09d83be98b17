import "server-only";
import type { BranchRecord, ConversationRecord, MessageRecord } from "@/lib/db";
import { getLiveBus } from "./bus";
import type { LiveEvent } from "./events";
import { ensureSharedLive } from "./shared";

const now = () => new Date().toISOString();

/** Tells this process's open tabs, and with PostgreSQL every other instance's (LV-2). */
export function publishLiveEvent(event: LiveEvent): void {
  void ensureSharedLive();
  getLiveBus().publish(event);
}

/**
 * Tells open tabs that a conversation changed: messages appended to a branch
 * (the proxy, the chat recorder and the messages API all write turns), or the
 * conversation itself created or edited (`appended` empty).
 */
export function publishAppended(
  conversation: ConversationRecord,
  branchId: string,
  appended: readonly MessageRecord[],
  options: { created?: boolean } = {},
): void {
  const last = appended.at(-1);
  publishLiveEvent({
    type: "conversation-updated",
    conversationId: conversation.id,
    at: now(),
    conversation: last ? { ...conversation, updatedAt: last.createdAt } : conversation,
    created: options.created ?? false,
    appended: last ? { branchId, branchLength: last.position + 1, messages: [...appended] } : null,
  });
}

/** Tells open tabs that a branch was forked. */
export function publishBranchCreated(branch: BranchRecord): void {
  publishLiveEvent({ type: "branch-created", conversationId: branch.conversationId, at: now(), branch });
}
