import type { RunInput, RunResult } from "@/lib/playground/protocol";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { PlaygroundState } from "./types";

// Taking a run's result into the store: shared by loading a conversation and by re-runs.

/** Fetches the histories of the selected step of the current result (for the step diff). */
export async function fetchStepHistories(
  runtime: PlaygroundRuntime,
  set: (partial: Partial<PlaygroundState>) => void,
  get: () => PlaygroundState,
): Promise<void> {
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
    // A recount by another model's counter lands with its result: the per-message counts and the totals change together.
    const recounted = result.loadedTokens && result.loadedTokens.length === get().messages.length ? { tokens: result.loadedTokens } : {};
    set({ result, runError: null, selectedStep: step !== null && step >= 0 ? step : null, ...recounted });
    if (get().view === "after" && (get().selectedMessage ?? -1) >= result.history.length) set({ selectedMessage: null });
    await fetchStepHistories(runtime, set, get);
  } catch (error) {
    if (token === runtime.loadToken) set({ runError: errorText(error) });
  } finally {
    runtime.runsInFlight -= 1;
    if (runtime.runsInFlight === 0) set({ running: false });
  }
}
