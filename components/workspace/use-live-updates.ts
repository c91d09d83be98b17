"use client";

import { useEffect } from "react";
import type { BranchRecord, MessageRecord } from "@/lib/db";
import type { PlaygroundStore } from "@/lib/store";

interface ConversationUpdated {
  appended: { branchId: string; branchLength: number; messages: MessageRecord[] } | null;
}

interface BranchCreated {
  branch: BranchRecord;
}

/** Follows the recording proxy's live events for the open conversation: new turns on this branch, new branches. */
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
      if (!update?.appended) return;
      void store.getState().appendRecords(update.appended.branchId, update.appended.branchLength, update.appended.messages);
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
    };
  }, [store, conversationId]);
}
