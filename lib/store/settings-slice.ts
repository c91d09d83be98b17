import type { StateCreator } from "zustand/vanilla";
import { sameJson, type AutomationMode } from "@/lib/context/light";
import { BUILT_IN_MODELS, type ModelEntry } from "@/lib/models";
import { DEFAULT_SETTINGS, mergeSettings, resolveSettings, type Settings } from "@/lib/settings";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { PlaygroundState, SettingsSlice } from "./types";

/** Undo steps kept; the oldest go first. */
export const UNDO_LIMIT = 100;

type Set = (partial: Partial<PlaygroundState>) => void;
type Get = () => PlaygroundState;

/** Saves `settings` to the conversation now. */
async function save(runtime: PlaygroundRuntime, set: Set, get: Get, settings: Settings): Promise<void> {
  const { services } = runtime;
  const conversationId = get().conversation?.id;
  if (!services || !conversationId) return;
  set({ saveStatus: "saving", saveError: null });
  try {
    await services.saveSettings(conversationId, settings);
    set({ savedSettings: settings });
    // A change made while saving has its own save scheduled; leave its status alone.
    if (get().settings === settings && runtime.saveTimer === undefined) set({ saveStatus: "saved" });
  } catch (error) {
    set({ saveStatus: "error", saveError: errorText(error) });
  }
}

/** Saves the settings to the conversation once they have stopped changing for `saveDelayMs`. */
function scheduleSave(runtime: PlaygroundRuntime, set: Set, get: Get): void {
  if (!runtime.services || !get().conversation?.id) return;
  clearTimeout(runtime.saveTimer);
  set({ saveStatus: "pending", saveError: null });
  runtime.saveTimer = setTimeout(() => {
    runtime.saveTimer = undefined;
    void save(runtime, set, get, get().settings);
  }, runtime.saveDelayMs);
}

/** A pending save happens now (before a try starts, so the try's changes are never in it). */
function flushSave(runtime: PlaygroundRuntime, set: Set, get: Get): void {
  if (runtime.saveTimer === undefined) return;
  clearTimeout(runtime.saveTimer);
  runtime.saveTimer = undefined;
  void save(runtime, set, get, get().settings);
}

/**
 * Keeps `previous` as an undo step (PO-6), unless this change continues a run
 * of changes to the same field within the save delay (a slider drag).
 */
function recordStep(runtime: PlaygroundRuntime, set: Set, get: Get, previous: Settings, field: string | undefined): void {
  const continues = field !== undefined && field === runtime.historyField;
  clearTimeout(runtime.historyTimer);
  runtime.historyField = field;
  runtime.historyTimer =
    field === undefined
      ? undefined
      : setTimeout(() => {
          runtime.historyField = undefined;
          runtime.historyTimer = undefined;
        }, runtime.saveDelayMs);
  set(continues ? { future: [] } : { past: [...get().past, previous].slice(-UNDO_LIMIT), future: [] });
}

function endStep(runtime: PlaygroundRuntime): void {
  clearTimeout(runtime.historyTimer);
  runtime.historyField = undefined;
  runtime.historyTimer = undefined;
}

export function createSettingsSlice(
  runtime: PlaygroundRuntime,
  catalogue: ModelEntry[] = [...BUILT_IN_MODELS],
): StateCreator<PlaygroundState, [], [], SettingsSlice> {
  return (set, get) => {
    const show = (settings: Settings) => {
      set({ settings, resolved: resolveSettings(settings, get().catalogue) });
      void get().requestRun();
      if (!get().trying) scheduleSave(runtime, set, get);
    };
    const change = (settings: Settings, field?: string) => {
      const previous = get().settings;
      if (settings === previous) return;
      recordStep(runtime, set, get, previous, field);
      show(settings);
    };
    return {
      settings: DEFAULT_SETTINGS,
      savedSettings: DEFAULT_SETTINGS,
      past: [],
      future: [],
      trying: false,
      resolved: resolveSettings(DEFAULT_SETTINGS, catalogue),
      catalogue,
      nextTurn: "",
      saveStatus: "idle",
      saveError: null,

      replaceSettings(settings: Settings) {
        // The panel hands whole settings: a slider drag still changes one field at a time.
        const current = get().settings;
        const changed = (Object.keys(settings) as (keyof Settings)[]).filter((key) => !sameJson(settings[key], current[key]));
        change(settings, changed.length === 1 ? changed[0] : undefined);
      },

      applyMode(mode: AutomationMode) {
        // A preset sets the mode's rounds and thresholds; sizes, budget, model and processors stay as tuned.
        change(mergeSettings(get().settings, { mode }));
      },

      setNextTurn(text: string) {
        if (text === get().nextTurn) return;
        set({ nextTurn: text });
        void get().requestRun();
      },

      undo() {
        const { past, future, settings } = get();
        const previous = past.at(-1);
        if (!previous) return;
        endStep(runtime);
        set({ past: past.slice(0, -1), future: [...future, settings] });
        show(previous);
      },

      redo() {
        const { past, future, settings } = get();
        const next = future.at(-1);
        if (!next) return;
        endStep(runtime);
        set({ past: [...past, settings], future: future.slice(0, -1) });
        show(next);
      },

      startTry() {
        if (get().trying) return;
        flushSave(runtime, set, get);
        set({ trying: true });
      },

      saveTry() {
        if (!get().trying) return;
        set({ trying: false });
        void save(runtime, set, get, get().settings);
      },

      discardTry() {
        if (!get().trying) return;
        const saved = get().savedSettings;
        // The tried settings stay one undo away; the saved ones need no saving again.
        if (saved !== get().settings) {
          recordStep(runtime, set, get, get().settings, undefined);
          set({ settings: saved, resolved: resolveSettings(saved, get().catalogue) });
          void get().requestRun();
        }
        set({ trying: false });
      },
    };
  };
}
