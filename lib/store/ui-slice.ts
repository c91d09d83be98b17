import type { StateCreator } from "zustand/vanilla";
import type { Dialog, PanelTab, PlaygroundState, Theme, UiSlice } from "./types";

/** How many messages the shown list has: the loaded conversation before, the processed history after. */
export function shownLength(state: Pick<PlaygroundState, "view" | "messages" | "result">): number {
  return state.view === "after" ? (state.result?.history.length ?? 0) : state.messages.length;
}

export function createUiSlice(initialTheme: Theme): StateCreator<PlaygroundState, [], [], UiSlice> {
  return (set, get) => ({
    hoveredCall: null,
    selectedMessage: null,
    tab: "pipeline",
    selectedHandle: null,
    theme: initialTheme,
    dialog: null,

    setHoveredCall(key: string | null) {
      if (key !== get().hoveredCall) set({ hoveredCall: key });
    },

    openHandle(handle: string | null) {
      set(handle === null ? { selectedHandle: null } : { selectedHandle: handle, tab: "handles" });
    },

    selectMessage(index: number | null) {
      const length = shownLength(get());
      set({ selectedMessage: index === null || length === 0 ? null : Math.max(0, Math.min(length - 1, index)) });
    },

    moveSelection(delta: number) {
      const current = get().selectedMessage;
      get().selectMessage(current === null ? (delta > 0 ? 0 : shownLength(get()) - 1) : current + delta);
    },

    setTab(tab: PanelTab) {
      set({ tab });
    },

    setTheme(theme: Theme) {
      set({ theme });
    },

    toggleTheme() {
      set({ theme: get().theme === "dark" ? "light" : "dark" });
    },

    openDialog(dialog: Exclude<Dialog, null>) {
      set({ dialog });
    },

    closeDialog() {
      set({ dialog: null });
    },
  });
}
