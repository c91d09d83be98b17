// The round structure of a stretch of history (E-R1), kept in append-only arrays
// that a history and the histories appended to it share: each reads only its
// own prefix of them, and only the latest history to extend them may push.
import { isFinalAnswer, type Message } from "../messages";

/** Round starts, round finals and system positions, absolute, in history order. */
export class StructureArrays {
  readonly roundStarts: number[] = [];
  /** Each round's final answer position; -1 while open. A later extender may fill the last one in. */
  readonly finals: number[] = [];
  readonly systems: number[] = [];
  /** The one holder allowed to push (or fill in the last final): the last to extend these. */
  owner: object | undefined;
}

/** Where a scan stands: counts so far and whether the last round is complete (the next non-system message opens one). */
export interface ScanState {
  rounds: number;
  systems: number;
  complete: boolean;
}

/**
 * Scans `history[from, to)` into the arrays (E-R1), continuing from `state`:
 * a non-system message after a final answer opens a round, a final answer
 * (an assistant message without tool calls that no engine mark makes a chain
 * summary) completes it. `offset` holds the rounds and systems before the
 * arrays' first entries (those of a base history).
 */
export function scanStructure(
  history: readonly Message[],
  from: number,
  to: number,
  arrays: StructureArrays,
  state: ScanState,
  offset: Readonly<ScanState>,
): void {
  for (let position = from; position < to; position += 1) {
    const message = history[position];
    if (message.role === "system") {
      arrays.systems[state.systems - offset.systems] = position;
      state.systems += 1;
      continue;
    }
    if (state.complete) {
      arrays.roundStarts[state.rounds - offset.rounds] = position;
      arrays.finals[state.rounds - offset.rounds] = -1;
      state.rounds += 1;
      state.complete = false;
    }
    if (isFinalAnswer(message)) {
      arrays.finals[state.rounds - 1 - offset.rounds] = position;
      state.complete = true;
    }
  }
}

/** The number of values in the ascending `values[0, count)` below `limit`. */
export function countBelow(values: readonly number[], count: number, limit: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle] < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
