// Counts of the work a run does over history arrays, since the engine was loaded:
// positions laid out into new arrays and positions compared by identity. They
// show that a run's work follows what changed (E-PL7, E-I3); the tests and the
// bench read them, never a clock.

/** Positions copied and compared so far, per process (or worker). */
export interface HistoryWork {
  /** Positions of new history arrays the engine laid out (applyEdits, keepRanges). */
  copied: number;
  /** Positions compared by identity to find the history an array extends. */
  compared: number;
}

const work: HistoryWork = { copied: 0, compared: 0 };

/** A copy of the counts so far; subtract two to get a run's work. */
export function historyWork(): HistoryWork {
  return { ...work };
}

export function countCopied(positions: number): void {
  work.copied += positions;
}

export function countCompared(positions: number): void {
  work.compared += positions;
}
