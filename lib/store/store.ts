import { createStore, type StoreApi } from "zustand/vanilla";
import { createBranchesSlice } from "./branches-slice";
import { createCompareSlice } from "./compare-slice";
import { conversationState, createConversationSlice } from "./conversation-slice";
import { createRunSlice } from "./run-slice";
import { createRuntime, type PlaygroundPipeline, type PlaygroundServices } from "./runtime";
import { createSettingsSlice } from "./settings-slice";
import type { ModelEntry } from "@/lib/models";
import type { ConversationInput, PanelTab, PlaygroundState, Theme } from "./types";
import { createUiSlice } from "./ui-slice";

export interface CreatePlaygroundStoreOptions {
  /** The conversation to start with (the server-rendered page shows it before the worker runs). */
  conversation?: ConversationInput;
  pipeline?: PlaygroundPipeline;
  services?: PlaygroundServices;
  theme?: Theme;
  tab?: PanelTab;
  selectedStep?: number | null;
  view?: PlaygroundState["view"];
  /** Debounce of settings saves; default 600 ms. */
  saveDelayMs?: number;
  /** The model catalogue with the users' entries; default the built-in one. */
  catalogue?: ModelEntry[];
}

export type PlaygroundStore = StoreApi<PlaygroundState>;

/** The playground's one store: conversation, settings, run, ui, branches and compare slices over one runtime. */
export function createPlaygroundStore(options: CreatePlaygroundStoreOptions = {}): PlaygroundStore {
  const runtime = createRuntime(options);
  // The starting state is part of the store's initial state: React renders the server's HTML and hydrates from
  // that (zustand's server snapshot), so the page shows the conversation and its first result before any script runs.
  return createStore<PlaygroundState>()((...args) => {
    const state: PlaygroundState = {
      ...createConversationSlice(runtime)(...args),
      ...createSettingsSlice(runtime, options.catalogue)(...args),
      ...createRunSlice(runtime)(...args),
      ...createUiSlice(options.theme ?? "light")(...args),
      ...createBranchesSlice(runtime)(...args),
      ...createCompareSlice(runtime)(...args),
    };
    const initial: Partial<PlaygroundState> = options.conversation ? conversationState(options.conversation, false, true, state.catalogue) : {};
    if (options.tab) initial.tab = options.tab;
    if (options.selectedStep !== undefined) initial.selectedStep = options.selectedStep;
    if (options.view) initial.view = options.view;
    return { ...state, ...initial };
  });
}
