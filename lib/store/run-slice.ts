import type { StateCreator } from "zustand/vanilla";
import type { RunInput, RunResult } from "@/lib/playground/protocol";
import { loadIntoPipeline } from "./conversation-slice";
import { errorText, type PlaygroundPipeline, type PlaygroundRuntime } from "./runtime";
import type { HistoryView, PlaygroundState, RunSlice } from "./types";

/** Fetches the histories of the selected step of the current result (for the step diff). */
async function fetchStepHistories(runtime: PlaygroundRuntime, set: (partial: Partial<PlaygroundState>) => void, get: () => PlaygroundState): Promise<void> {
  const { pipeline } = runtime;
  const { result, selectedStep } = get();
  if (!pipeline || !result || selectedStep === null) return;
  try {
    const { before, after } = await pipeline.stepHistories(selectedStep);
    if (get().result?.revision === result.revision && get().selectedStep === selectedStep) {
      set({ stepHistories: { revision: result.revision, step: selectedStep, before, after } });
    }
  } catch (error) {
    // A newer run replaced the worker's trace: its own fetch follows.
    if (get().result?.revision === result.revision) set({ runError: errorText(error) });
  }
}

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

/** What a run builds the next request with: the resolved settings and the typed next turn. */
export function runInput(state: Pick<PlaygroundState, "resolved" | "nextTurn">): RunInput {
  return state.nextTurn.trim() === "" ? { settings: state.resolved } : { settings: state.resolved, userTurn: state.nextTurn };
}

/** Takes a run's result unless a newer load replaced the conversation meanwhile; `running` is on until every run taken has settled. */
export async function acceptRun(
  runtime: PlaygroundRuntime,
  set: (partial: Partial<PlaygroundState>) => void,
  get: () => PlaygroundState,
  token: number,
  run: Promise<RunResult | undefined>,
): Promise<void> {
  runtime.runsInFlight += 1;
  set({ running: true });
  try {
    const result = await run;
    if (!result || token !== runtime.loadToken) return;
    const { selectedStep } = get();
    const step = selectedStep === null ? null : Math.min(selectedStep, result.steps.length - 1);
    set({ result, runError: null, selectedStep: step !== null && step >= 0 ? step : null });
    if (get().view === "after" && (get().selectedMessage ?? -1) >= result.history.length) set({ selectedMessage: null });
    await fetchStepHistories(runtime, set, get);
  } catch (error) {
    if (token === runtime.loadToken) set({ runError: errorText(error) });
  } finally {
    runtime.runsInFlight -= 1;
    if (runtime.runsInFlight === 0) set({ running: false });
  }
}

export function createRunSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], RunSlice> {
  return (set, get) => ({
    pipelineReady: runtime.pipeline !== null,
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

    attachPipeline(pipeline: PlaygroundPipeline) {
      runtime.pipeline = pipeline;
      // Work begun with an earlier pipeline (React's strict mode attaches twice) must not land.
      runtime.loadToken += 1;
      runtime.pipelineToken = -1;
      set({ pipelineReady: true });
      void loadIntoPipeline(runtime, set, get);
      return () => {
        if (runtime.pipeline !== pipeline) return;
        runtime.pipeline = null;
        runtime.loadToken += 1;
        set({ pipelineReady: false });
      };
    },
  });
}
