import "server-only";
import { comparePolicies, ReplayCancelledError, type CompareOptions, type CompareResult } from "@/lib/context";
import { HttpError } from "./errors";

/** IN-8: a replay reads at most this many messages; longer branches are refused with 413 before any is read. */
export const MAX_REPLAY_MESSAGES = 20_000;
/** IN-8: `keepMessages` sends every call's request back, so its answer grows with the square of the branch: at most this many messages. */
export const MAX_KEPT_REPLAY_MESSAGES = 1_000;
/** IN-8: a replay stops after this long (`CONTEXT_LAB_REPLAY_TIMEOUT_MS` overrides it). */
export const DEFAULT_REPLAY_TIMEOUT_MS = 60_000;

/** The time limit in force: the environment's when it is a positive integer, else the default. */
export function replayTimeoutMs(): number {
  const configured = Number(process.env.CONTEXT_LAB_REPLAY_TIMEOUT_MS);
  return Number.isSafeInteger(configured) && configured > 0 ? configured : DEFAULT_REPLAY_TIMEOUT_MS;
}

/** IN-8: refuses a branch of `length` messages before its history is read, when replaying it would pass the size limits. */
export function requireReplayableLength(length: number, keepMessages: boolean): void {
  const limit = keepMessages ? MAX_KEPT_REPLAY_MESSAGES : MAX_REPLAY_MESSAGES;
  if (length <= limit) return;
  const advice = keepMessages ? "replay it without keepMessages, or fork a shorter branch" : "fork a branch at an earlier message and replay that";
  throw new HttpError(
    413,
    "payload_too_large",
    `the branch has ${length} messages; a replay${keepMessages ? " with keepMessages" : ""} takes at most ${limit}: ${advice}`,
    {
      details: { messages: length, limit },
    },
  );
}

/**
 * `comparePolicies` within the time limit, cancelled as soon as `signal`
 * aborts (the client went away): it stops at its next call either way. Past
 * the limit it answers 422 `replay_timeout` with the calls it had replayed.
 */
export async function comparePoliciesWithinLimits(options: Omit<CompareOptions, "signal">, signal: AbortSignal): Promise<CompareResult> {
  const limitMs = replayTimeoutMs();
  const deadline = AbortSignal.timeout(limitMs);
  try {
    return await comparePolicies({ ...options, signal: AbortSignal.any([signal, deadline]) });
  } catch (error) {
    if (!ReplayCancelledError.isInstance(error) || signal.aborted || !deadline.aborted) throw error;
    throw new HttpError(
      422,
      "replay_timeout",
      `the replay stopped after ${limitMs} ms, ${error.done} call${error.done === 1 ? "" : "s"} into a run: replay a shorter branch (fork it at an earlier message) or fewer policies`,
      { details: { limitMs, done: error.done } },
    );
  }
}
