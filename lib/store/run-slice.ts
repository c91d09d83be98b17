import type { StateCreator } from "zustand/vanilla";
import { loadIntoPipeline } from "./conversation-slice";
import type { PlaygroundPipeline, PlaygroundRuntime } from "./runtime";
import { acceptRun, fetchStepHistories, runInput } from "./runs";
import type { HistoryView, PlaygroundState, RunSlice } from "./types";

/** Where the selection goes when the view flips: the same message in the other list, or the nearest one kept. */
function mapSelection(state: PlaygroundState, to: HistoryView): number | null {
  const { selectedMessage, result } = state;
  if (selectedMessage === null || !result) return null;
  if (to === "after") {
    for (let index = selectedMessage; index < result.kept.length; index += 1) if (result.kept[index] >= 0) return result.kept[index];
    return result.history.length > 0 ? result.history.length - 1 : null;
  }
  const origin = result.kept.indexOf(selectedMessage);
  if (origin >= 0) return origin;
  // A summary stands in for dropped messages: select the first one it replaced.
  const next = result.kept.findIndex((at) => at > selectedMessage);
  return next >= 0 ? next : null;
}

export function createRunSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], RunSlice> {
  return (set, get) => ({
    pipelineReady: runtime.pipeline !== null,
    tokenizerLoading: null,
    result: null,
    running: false,
    runError: null,
    selectedStep: null,
    stepHistories: null,
    view: "before",

    async requestRun() {
      const { pipeline } = runtime;
      if (!pipeline || get().loadStatus !== "ready" || runtime.pipelineToken !== runtime.loadToken) return;
      await acceptRun(runtime, set, get, runtime.loadToken, pipeline.run(runInput(get())));
    },

    selectStep(step: number | null) {
      const steps = get().result?.steps.length ?? 0;
      const next = step === null || steps === 0 ? null : Math.max(0, Math.min(steps - 1, step));
      if (next === get().selectedStep && (next === null || get().stepHistories?.step === next)) return;
      set({ selectedStep: next, stepHistories: null });
      void fetchStepHistories(runtime, set, get);
    },

    moveStep(delta: number) {
      const steps = get().result?.steps.length ?? 0;
      if (steps === 0) return;
      const current = get().selectedStep;
      get().selectStep(current === null ? (delta > 0 ? 0 : steps - 1) : current + delta);
    },

    setView(view: HistoryView) {
      if (view === get().view) return;
      set({ view, selectedMessage: mapSelection(get(), view), hoveredCall: null });
    },

    toggleView() {
      get().setView(get().view === "before" ? "after" : "before");
    },

    async reloadHandle(handle: string) {
      if (!runtime.pipeline) throw new Error("the pipeline worker is not running yet");
      return runtime.pipeline.reload(handle);
    },

    async countTexts(texts: string[]) {
      if (!runtime.pipeline?.countTexts) throw new Error("the pipeline worker is not running yet");
      return runtime.pipeline.countTexts(texts);
    },

    attachPipeline(pipeline: PlaygroundPipeline) {
      runtime.pipeline = pipeline;
      // Work begun with an earlier pipeline (React's strict mode attaches twice) must not land.
      runtime.loadToken += 1;
      runtime.pipelineToken = -1;
      set({ pipelineReady: true });
      const stopFollowing = pipeline.onTokenizer?.((encoding) => set({ tokenizerLoading: encoding }));
      void loadIntoPipeline(runtime, set, get);
      return () => {
        stopFollowing?.();
        if (runtime.pipeline !== pipeline) return;
        runtime.pipeline = null;
        runtime.loadToken += 1;
        set({ pipelineReady: false, tokenizerLoading: null });
      };
    },
  });
}
