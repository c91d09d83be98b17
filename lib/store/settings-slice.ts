import type { StateCreator } from "zustand/vanilla";
import type { AutomationMode, ProcessorKind } from "@/lib/context";
import { DEFAULT_SETTINGS, settingsForMode, type PlaygroundSettings } from "@/lib/playground/settings";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { PlaygroundState, SettingsSlice } from "./types";

/** Saves the settings to the conversation once they have stopped changing for `saveDelayMs`. */
function scheduleSave(runtime: PlaygroundRuntime, set: (partial: Partial<PlaygroundState>) => void, get: () => PlaygroundState): void {
  const { services } = runtime;
  const conversationId = get().conversation?.id;
  if (!services || !conversationId) return;
  clearTimeout(runtime.saveTimer);
  set({ saveStatus: "pending", saveError: null });
  runtime.saveTimer = setTimeout(async () => {
    runtime.saveTimer = undefined;
    const settings = get().settings;
    set({ saveStatus: "saving" });
    try {
      await services.saveSettings(conversationId, settings);
      // A change made while saving has its own save scheduled; leave its status alone.
      if (get().settings === settings && runtime.saveTimer === undefined) set({ saveStatus: "saved" });
    } catch (error) {
      set({ saveStatus: "error", saveError: errorText(error) });
    }
  }, runtime.saveDelayMs);
}

export function createSettingsSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], SettingsSlice> {
  return (set, get) => {
    const change = (settings: PlaygroundSettings) => {
      set({ settings });
      void get().requestRun();
      scheduleSave(runtime, set, get);
    };
    return {
      settings: DEFAULT_SETTINGS,
      saveStatus: "idle",
      saveError: null,

      updateSettings(changes: Partial<PlaygroundSettings>) {
        change({ ...get().settings, ...changes });
      },

      replaceSettings(settings: PlaygroundSettings) {
        if (settings !== get().settings) change(settings);
      },

      applyMode(mode: AutomationMode) {
        // A preset sets the mode's thresholds; sizes, budget, model and processors stay as tuned.
        const { mode: _previous, historyRounds: _rounds, summaryThreshold: _summary, offloadThreshold: _offload, ...kept } = get().settings;
        change(settingsForMode(mode, kept));
      },

      toggleProcessor(kind: ProcessorKind) {
        const processors = get().settings.processors.map((entry) => (entry.kind === kind ? { ...entry, enabled: !entry.enabled } : entry));
        change({ ...get().settings, processors });
      },

      moveProcessor(kind: ProcessorKind, index: number) {
        const processors = [...get().settings.processors];
        const from = processors.findIndex((entry) => entry.kind === kind);
        const to = Math.max(0, Math.min(processors.length - 1, index));
        if (from < 0 || from === to) return;
        const [entry] = processors.splice(from, 1);
        processors.splice(to, 0, entry);
        change({ ...get().settings, processors });
      },

      resetSettings() {
        change(DEFAULT_SETTINGS);
      },
    };
  };
}
