import type { Context } from "../context";
import { isFinalAnswer, roundOfEachMessage, type Message } from "../messages";
import { ContextProcessor, type ProcessorResult } from "../pipeline";
import { STATE_KEYS } from "../state";
import { dropIndices } from "./drop";

export interface RoundWindowOptions {
  /** Rounds to keep, counted from the end; defaults to `ctx.config.historyRounds`. */
  maxRounds?: number;
  name?: string;
}

/**
 * Keeps the last `maxRounds` rounds (W1). System messages stay, in place; the
 * incomplete round always stays (R2); whole rounds go, so tool pairs stay whole (P1).
 * @example pipeline.register(new RoundWindowProcessor({ maxRounds: 10 }))
 */
export class RoundWindowProcessor extends ContextProcessor {
  readonly maxRounds?: number;

  constructor(options: RoundWindowOptions = {}) {
    super("pre_llm_call", { name: options.name ?? "round_window" });
    this.maxRounds = options.maxRounds;
  }

  process(ctx: Context): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const maxRounds = Math.max(0, this.maxRounds ?? ctx.config.historyRounds);
    const owner = roundOfEachMessage(history);
    const rounds = owner.reduce((highest, round) => Math.max(highest, round), -1) + 1;
    const lastComplete = lastRoundIsComplete(history);
    // W1: rounds before `keepFrom` go, except an incomplete last round (R2).
    const keepFrom = Math.min(rounds - maxRounds, lastComplete ? rounds : rounds - 1);
    if (keepFrom <= 0) return {};
    const dropped: number[] = [];
    for (let index = 0; index < history.length; index += 1) if (owner[index] >= 0 && owner[index] < keepFrom) dropped.push(index);
    const { history: next, effects } = dropIndices(history, dropped, "dropped");
    ctx.state.set(STATE_KEYS.history, next);
    return { effects };
  }
}

function lastRoundIsComplete(history: readonly Message[]): boolean {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    if (history[index].role === "system") continue;
    return isFinalAnswer(history[index]);
  }
  return true;
}
