"use client";

import { useEffect } from "react";
import { AUTOMATION_MODES } from "@/lib/context/light";
import { PANEL_TABS, type PanelTab, type PlaygroundStore } from "@/lib/store";
import { isTypingTarget } from "./shortcuts";

/** Ctrl/Cmd+Z (undo), Ctrl/Cmd+Shift+Z and Ctrl+Y (redo) of settings, outside text fields (they undo their own typing). */
function isUndoKey(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || !(event.ctrlKey || event.metaKey) || isTypingTarget(event.target)) return false;
  const key = event.key.toLowerCase();
  return key === "z" || (key === "y" && event.ctrlKey && !event.shiftKey);
}

/** Binds the workspace's shortcuts (see `SHORTCUTS`) to the store while mounted. */
export function useShortcuts(store: PlaygroundStore, availableTabs: readonly PanelTab[]): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isUndoKey(event)) {
        const state = store.getState();
        if (state.dialog !== null) return;
        event.preventDefault();
        if (event.shiftKey || event.key.toLowerCase() === "y") state.redo();
        else state.undo();
        return;
      }
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return;
      const state = store.getState();
      if (state.dialog !== null && event.key !== "Escape") return;
      const arrows = event.key === "ArrowDown" || event.key === "ArrowUp";
      // Arrows belong to sliders, tabs and lists that have focus; they select messages only from the page itself.
      if (arrows && event.target instanceof HTMLElement && event.target !== document.body && !event.target.closest('[role="list"]')) return;
      let handled = true;
      switch (event.key) {
        case "j":
        case "ArrowDown":
          state.moveSelection(+1);
          break;
        case "k":
        case "ArrowUp":
          state.moveSelection(-1);
          break;
        case "g":
          state.selectMessage(0);
          break;
        case "G":
          state.selectMessage(Number.MAX_SAFE_INTEGER);
          break;
        case "b":
          state.toggleView();
          break;
        case "f":
          void state.forkAtSelection();
          break;
        case "[":
          state.moveStep(-1);
          break;
        case "]":
          state.moveStep(+1);
          break;
        case "p": {
          const next = AUTOMATION_MODES[(AUTOMATION_MODES.indexOf(state.settings.mode) + 1) % AUTOMATION_MODES.length];
          state.applyMode(next);
          break;
        }
        case "t":
          state.toggleTheme();
          break;
        case "?":
          state.openDialog("shortcuts");
          break;
        case "/":
          document.querySelector<HTMLInputElement>('input[aria-label="Find in the conversation"]')?.focus();
          break;
        case "Escape":
          if (state.dialog !== null) state.closeDialog();
          else if (state.selectedMessage !== null) state.selectMessage(null);
          else handled = false;
          break;
        default: {
          const tab = PANEL_TABS[Number(event.key) - 1];
          if (/^[1-8]$/.test(event.key) && tab && availableTabs.includes(tab)) state.setTab(tab);
          else handled = false;
        }
      }
      if (handled) event.preventDefault();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [store, availableTabs]);
}
