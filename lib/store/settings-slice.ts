import type { StateCreator } from "zustand/vanilla";
import type { AutomationMode } from "@/lib/context/light";
import { BUILT_IN_MODELS, type ModelEntry } from "@/lib/models";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, type Settings } from "@/lib/settings";
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

export function createSettingsSlice(runtime: PlaygroundRuntime, catalogue: ModelEntry[] = [...BUILT_IN_MODELS]): StateCreator<PlaygroundState, [], [], SettingsSlice> {
  return (set, get) => {
    const change = (settings: Settings) => {
      set({ settings, resolved: resolveSettings(settings, get().catalogue) });
      void get().requestRun();
      scheduleSave(runtime, set, get);
    };
    return {
      settings: DEFAULT_SETTINGS,
      resolved: resolveSettings(DEFAULT_SETTINGS, catalogue),
      catalogue,
      nextTurn: "",
      saveStatus: "idle",
      saveError: null,

      updateSettings(changes: Partial<Settings>) {
        change(mergeSettings(get().settings, changes));
      },

      replaceSettings(settings: Settings) {
        if (settings !== get().settings) change(settings);
      },

      applyMode(mode: AutomationMode) {
        // A preset sets the mode's rounds and thresholds; sizes, budget, model and processors stay as tuned.
        change(mergeSettings(get().settings, { mode }));
      },

      chooseModel(model: string) {
        change(mergeSettings(get().settings, { model, contextWindow: null, maxOutputTokens: null, encoding: null }));
      },

      setNextTurn(text: string) {
        if (text === get().nextTurn) return;
        set({ nextTurn: text });
        void get().requestRun();
      },

      setCatalogue(entries: ModelEntry[]) {
        set({ catalogue: entries, resolved: resolveSettings(get().settings, entries) });
        void get().requestRun();
      },
    };
  };
}
