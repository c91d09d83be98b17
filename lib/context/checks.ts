// Development checks (E-T7): the engine's caches key on identity (a message's
// count, a history's index), which is what makes re-runs cheap, and M1 says
// nothing changes a message in place. With the checks on, the engine freezes
// what it caches, so an in-place edit throws where it is made instead of
// leaving a stale count behind. Off by default: V8 reads frozen objects slower
// where they mix with unfrozen ones.
import { deepFreeze } from "./freeze";

let enabled = false;

/**
 * Turns development checks on or off for this copy of the engine (the test
 * suites and development builds turn them on).
 * @example setDevelopmentChecks(true) // in a test setup file, or a development build's entry
 */
export function setDevelopmentChecks(on: boolean): void {
  enabled = on;
}

/** Whether development checks are on. */
export function developmentChecks(): boolean {
  return enabled;
}

/** Deep-freezes a value the engine is about to cache, when development checks are on. */
export function freezeCached<T>(value: T): T {
  return enabled ? deepFreeze(value) : value;
}
