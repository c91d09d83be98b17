import { onlyIndex, rangeIndices, type Message, type TraceStep } from "@/lib/context/light";
import type { MessageMark } from "./protocol";

/** The mark of a loaded message a persisted summary stands for. */
export const PERSISTED_SUMMARY_MARK: MessageMark = Object.freeze({ processor: "persisted summary", kind: "summarised" });

/**
 * Follows every loaded message through a request's making: into the
 * candidate history (where a persisted summary may stand for it), through
 * each processor step, to where it ends up in the request (or -1), with what
 * was done to it on the way. Unchanged messages keep their identity from step
 * to step; replaced ones are found through the steps' effects.
 */
export function followMessages(
  loaded: readonly Message[],
  candidate: readonly Message[],
  steps: readonly TraceStep[],
  final: readonly Message[],
  covered: ReadonlySet<Message>,
): { kept: number[]; marks: MessageMark[][] } {
  const marks: MessageMark[][] = loaded.map((message) => (covered.has(message) ? [{ ...PERSISTED_SUMMARY_MARK }] : []));
  const loadedIndex = new Map<Message, number>();
  loaded.forEach((message, index) => loadedIndex.set(message, index));
  let origins = candidate.map((message) => loadedIndex.get(message) ?? -1);
  for (const step of steps) {
    if (step.historyBefore === step.historyAfter && step.effects.length === 0) continue;
    const positions = new Map<Message, number>();
    step.historyBefore.forEach((message, index) => positions.set(message, index));
    const next = step.historyAfter.map((message) => {
      const before = positions.get(message);
      return before === undefined ? -1 : origins[before];
    });
    for (const effect of step.effects) {
      for (const index of rangeIndices(effect.before)) {
        const origin = origins[index];
        if (origin !== undefined && origin >= 0) marks[origin].push({ processor: step.processor, kind: effect.kind, handle: effect.handle });
      }
      // A one-to-one replacement (an offloaded message) still stands for its original.
      const [before, after] = [onlyIndex(effect.before), onlyIndex(effect.after)];
      if (before !== undefined && after !== undefined) next[after] = origins[before];
    }
    origins = next;
  }
  const kept = loaded.map(() => -1);
  origins.forEach((origin, index) => {
    if (origin >= 0 && index < final.length) kept[origin] = index;
  });
  return { kept, marks };
}
