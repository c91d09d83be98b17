import type { StateCreator } from "zustand/vanilla";
import { ReplayCancelledError, type CacheTtl, type ComparedPolicy } from "@/lib/context/light";
import { cachingOf, findModel, pricesOf } from "@/lib/models";
import { errorText, type PlaygroundRuntime } from "./runtime";
import type { CompareSlice, PlaygroundState } from "./types";

/** Stopped on request: the engine's error in-process, the worker client's `cancelled` across the worker. */
function isCancelled(error: unknown): boolean {
  return ReplayCancelledError.isInstance(error) || (typeof error === "object" && error !== null && (error as { cancelled?: unknown }).cancelled === true);
}

/** Comparisons of policies on the loaded conversation, run by the pipeline (the Web Worker) with progress and cancel. */
export function createCompareSlice(runtime: PlaygroundRuntime): StateCreator<PlaygroundState, [], [], CompareSlice> {
  return (set, get) => ({
    comparison: null,
    compareProgress: null,
    comparing: false,
    compareError: null,

    async startCompare(policies: ComparedPolicy[], cacheTtl?: CacheTtl) {
      const { pipeline } = runtime;
      if (!pipeline?.compare) {
        set({ compareError: "comparisons need the pipeline worker, which has not started" });
        return;
      }
      runtime.cancelCompare?.();
      const token = ++runtime.compareToken;
      // E-RP9: every run is costed with the prices and cache rules of the model raw runs on (the first policy's).
      const entry = policies[0] ? findModel(policies[0].policy.model, get().catalogue).entry : null;
      const prices = entry ? pricesOf(entry) : null;
      const cache = entry ? cachingOf(entry) : null;
      set({ comparing: true, compareError: null, compareProgress: null });
      // CC-13: a TTL the model does not offer is no what-if; the runs keep the model's own.
      const ttl = cacheTtl !== undefined && cache?.ttls.includes(cacheTtl) ? cacheTtl : undefined;
      const job = pipeline.compare({ policies, prices, cache, ...(ttl === undefined ? {} : { cacheTtl: ttl }) }, (progress) => {
        if (token === runtime.compareToken) set({ compareProgress: progress });
      });
      runtime.cancelCompare = job.cancel;
      try {
        const comparison = await job.result;
        if (token === runtime.compareToken) set({ comparison, comparing: false });
      } catch (error) {
        if (token === runtime.compareToken) set({ comparing: false, compareError: isCancelled(error) ? null : errorText(error) });
      } finally {
        if (token === runtime.compareToken) runtime.cancelCompare = undefined;
      }
    },

    cancelCompare() {
      runtime.cancelCompare?.();
    },
  });
}
