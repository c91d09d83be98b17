"use client";

import { useEffect } from "react";
import type { PlaygroundStore } from "@/lib/store";
import { applyTheme, readDocumentTheme } from "@/components/ui/theme";
import { readWorkspaceLocation, workspaceHref } from "./workspace-url";

/**
 * Keeps the address bar on what is shown (branch, tab, step, view), so a view
 * can be shared and reloaded; a branch switch is a history entry, the rest
 * replace the current one.
 */
export function useUrlSync(store: PlaygroundStore): void {
  useEffect(() => {
    // While back/forward is being applied the store passes through mixed states that must not be written.
    let restoring = false;
    const write = () => {
      const { conversation, branch, tab, selectedStep, view } = store.getState();
      if (!conversation || restoring) return;
      const href = workspaceHref(conversation.id, { branch: branch?.id, tab, step: selectedStep, view });
      if (href === `${window.location.pathname}${window.location.search}`) return;
      const branchChanged = new URLSearchParams(window.location.search).get("branch") !== (branch?.id ?? null);
      if (branchChanged && window.location.search.includes("branch=")) window.history.pushState(null, "", href);
      else window.history.replaceState(null, "", href);
    };
    const restore = async () => {
      const location = readWorkspaceLocation(Object.fromEntries(new URLSearchParams(window.location.search)));
      restoring = true;
      try {
        const state = store.getState();
        state.setTab(location.tab ?? "pipeline");
        state.setView(location.view ?? "before");
        if (location.branch && location.branch !== state.branch?.id) await state.switchBranch(location.branch);
        store.getState().selectStep(location.step ?? null);
      } finally {
        restoring = false;
      }
    };
    const onPopState = () => void restore();
    write();
    window.addEventListener("popstate", onPopState);
    const unsubscribe = store.subscribe((state, previous) => {
      if (
        state.branch !== previous.branch ||
        state.tab !== previous.tab ||
        state.selectedStep !== previous.selectedStep ||
        state.view !== previous.view ||
        state.conversation !== previous.conversation
      )
        write();
    });
    return () => {
      window.removeEventListener("popstate", onPopState);
      unsubscribe();
    };
  }, [store]);
}

/** Starts the store on the theme the boot script painted and shows and saves every change. */
export function useThemeSync(store: PlaygroundStore): void {
  useEffect(() => {
    store.getState().setTheme(readDocumentTheme());
    return store.subscribe((state, previous) => {
      if (state.theme !== previous.theme) applyTheme(state.theme);
    });
  }, [store]);
}
