import type { Context } from "../context";
import { ContextError } from "../errors";
import { complementRanges, keepRanges } from "../history/edit";
import { indexOf } from "../history/index-of";
import { toRanges, type IndexRanges } from "../history/ranges";
import type { Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import { OutcomeCache } from "./outcome-cache";

export interface RoundWindowOptions {
  /** Rounds to keep, counted from the end; defaults to `ctx.config.historyRounds`. */
  maxRounds?: number;
  name?: string;
}

interface Outcome {
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/**
 * Keeps the last `maxRounds` rounds (E-W1). System messages stay, in place; the
 * incomplete round always stays (E-R2); whole rounds go, so tool pairs stay whole (E-P1).
 * Works from the history's index: it reads only what it keeps (E-I3).
 * @example pipeline.register(new RoundWindowProcessor({ maxRounds: 10 }))
 */
export class RoundWindowProcessor extends ContextProcessor {
  readonly maxRounds?: number;

  constructor(options: RoundWindowOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "round_window" });
    const { maxRounds } = options;
    // E-CFG4: a window keeps at least the last round, which holds the turn being answered.
    if (maxRounds !== undefined && (!Number.isSafeInteger(maxRounds) || maxRounds < 1))
      throw new ContextError(`round_window: maxRounds must be an integer ≥ 1, got ${maxRounds}`, { where: "maxRounds" });
    this.maxRounds = maxRounds;
  }

  override roundsKept(ctx: Context): number {
    return this.maxRounds ?? ctx.config.historyRounds;
  }

  process(ctx: Context): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const maxRounds = this.roundsKept(ctx);
    const key = `${maxRounds}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, keepLastRounds(history, maxRounds));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }
}

/** W1: rounds before the newest `maxRounds` go; at least one round stays, so the last (E-R2) always does. */
function keepLastRounds(history: readonly Message[], maxRounds: number): Outcome {
  const index = indexOf(history);
  const cut = index.startOfLastRounds(maxRounds);
  if (cut === 0) return { history, effects: [] };
  // System messages before the cut stay: they belong to no round.
  const systems: IndexRanges = toRanges(index.systemPositionsBefore(cut));
  const kept = [...systems, [cut, history.length] as const];
  return { history: keepRanges(history, kept), effects: [{ kind: "dropped", before: complementRanges(systems, cut), after: [] }] };
}
