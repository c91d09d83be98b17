import type { Message, TiktokenCounter } from "@/lib/context";

/** ST-3: a slice of work runs at most this long before other requests get their turn. */
export const SLICE_MS = 12;
/** ST-3: and at most this many items, so the yields are counted in items as well as in time. */
export const SLICE_ITEMS = 200;

/**
 * A step counter for work proportional to the input: `step()` after each item
 * lets pending I/O run (setImmediate) once the slice has run SLICE_MS or
 * SLICE_ITEMS items, whichever comes first.
 */
export function createSlicer(): { step: () => Promise<void> } {
  let started = performance.now();
  let items = 0;
  return {
    async step() {
      items += 1;
      if (items < SLICE_ITEMS && performance.now() - started < SLICE_MS) return;
      await yieldToIo();
      items = 0;
      started = performance.now();
    },
  };
}

/** Lets pending I/O (other requests) run before going on: the pause between slices, and E-T10's between counting steps. */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Each message's tokens as `counter.countMessage` counts them, counted in
 * slices (RL-ST3) and a long text in steps (E-T10), so other requests are
 * answered meanwhile. The counts stay in the counter's cache: an engine run
 * over the same messages afterwards, which is synchronous, encodes nothing.
 */
export async function countMessagesInSlices(counter: TiktokenCounter, messages: readonly Message[]): Promise<number[]> {
  const slicer = createSlicer();
  const counts = new Array<number>(messages.length);
  for (const [index, message] of messages.entries()) {
    await slicer.step();
    counts[index] = await counter.countMessageInSteps(message, yieldToIo);
  }
  return counts;
}
