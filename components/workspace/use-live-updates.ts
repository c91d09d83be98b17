"use client";

import { useEffect } from "react";
import type { BranchRecord, ConversationRecord, MessageRecord } from "@/lib/db";
import type { PlaygroundStore } from "@/lib/store";

interface ConversationUpdated {
  conversation: ConversationRecord;
  appended: { branchId: string; branchLength: number; messages: MessageRecord[] } | null;
}

interface BranchCreated {
  branch: BranchRecord;
}

const logFailure = (what: string) => (error: unknown) => console.error(`live: could not ${what}`, error);

/**
 * Follows the recording proxy's live events for the open conversation: new turns on this branch, new branches,
 * the conversation's tools. It subscribes before it reads (LV-LC1 in lib/live/README.md): once the stream is open,
 * the store reads what was recorded since the page's own read, and each append is checked against its cursor.
 */
export function useLiveUpdates(store: PlaygroundStore, conversationId: string): void {
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/live/conversations/${encodeURIComponent(conversationId)}`);
    const read = <T>(data: string): T | null => {
      try {
        return JSON.parse(data) as T;
      } catch {
        return null;
      }
    };
    // Every (re)connection: events sent while no stream was open are not replayed, so what they said is read.
    source.addEventListener("open", () => void store.getState().catchUp().catch(logFailure("read what was recorded before the live stream opened")));
    // Branch lengths in the picker and tree change with every turn on any branch; refresh them at most twice a second.
    let refresh: ReturnType<typeof setTimeout> | undefined;
    const refreshBranchesSoon = () => {
      refresh ??= setTimeout(() => {
        refresh = undefined;
        void store.getState().refreshBranches();
      }, 500);
    };
    source.addEventListener("conversation-updated", (event) => {
      const update = read<ConversationUpdated>((event as MessageEvent<string>).data);
      if (!update) return;
      void store.getState().noticeConversation(update.conversation).catch(logFailure("read the conversation's tools"));
      if (!update.appended) return;
      const { branchId, branchLength, messages } = update.appended;
      void store.getState().appendRecords(branchId, branchLength, messages).catch(logFailure("read the turns this page missed"));
      refreshBranchesSoon();
    });
    // A call starting and its outcome (an answer, a 429): the calls view and the failed-call markers reload, at most twice a second.
    let callsChanged: ReturnType<typeof setTimeout> | undefined;
    const reloadCallsSoon = () => {
      callsChanged ??= setTimeout(() => {
        callsChanged = undefined;
        store.getState().bumpCallsRevision();
      }, 500);
    };
    source.addEventListener("exchange-started", reloadCallsSoon);
    source.addEventListener("exchange-recorded", reloadCallsSoon);
    source.addEventListener("branch-created", (event) => {
      if (read<BranchCreated>((event as MessageEvent<string>).data)) refreshBranchesSoon();
    });
    return () => {
      if (refresh) clearTimeout(refresh);
      if (callsChanged) clearTimeout(callsChanged);
      source.close();
      store.getState().stopFollowing();
    };
  }, [store, conversationId]);
}
