import type { Context } from "../context";
import { complementRanges, keepRanges } from "../history/edit";
import { indexOf } from "../history/index-of";
import { toRanges } from "../history/ranges";
import type { Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STRATEGY_DEFAULTS, type TokenWindowSettings } from "../pipeline-spec";
import { STATE_KEYS } from "../state";
import { sharedCounter, TOKENS_TO_PRIME_REPLY, type TiktokenCounter } from "../tokens/counter";
import { resolveEncoding } from "../tokens/resolve";
import { OutcomeCache } from "./outcome-cache";
import { checkFields, checkInteger } from "./strategy-support";

const NAME = "token_window";
const FIELDS: readonly (keyof TokenWindowSettings)[] = ["maxTokens"];

interface Outcome {
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/** Checks settings (E-CS5) and fills in the defaults. */
export function resolveTokenWindowSettings(settings: Partial<TokenWindowSettings> = {}): Readonly<TokenWindowSettings> {
  checkFields(NAME, settings, FIELDS);
  const merged = { ...STRATEGY_DEFAULTS.token_window, ...settings };
  return Object.freeze({ maxTokens: checkInteger(NAME, "maxTokens", merged.maxTokens, 1) });
}

/**
 * A window by tokens alone (E-CS4): the oldest whole rounds go until the
 * history (system messages and reply priming included) fits `maxTokens`,
 * whatever the model's window. System messages stay in place; the last round
 * always stays (E-CS6), even when it alone is over; nothing is summarised.
 * @example pipeline.register(new TokenWindowProcessor({ maxTokens: 16_000 }))
 */
export class TokenWindowProcessor extends ContextProcessor {
  readonly settings: Readonly<TokenWindowSettings>;

  constructor(settings: Partial<TokenWindowSettings> = {}) {
    super("pre_llm_call", { name: NAME });
    this.settings = resolveTokenWindowSettings(settings);
  }

  process(ctx: Context): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const counter = sharedCounter(resolveEncoding(ctx.config));
    const key = `${this.settings.maxTokens}:${counter.encoding}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, fitWindow(history, this.settings.maxTokens, counter));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }
}

/** CS4: the newest whole rounds that fit, from the history's running totals (E-I3). */
function fitWindow(history: readonly Message[], maxTokens: number, counter: TiktokenCounter): Outcome {
  const index = indexOf(history);
  if (index.tokens(counter) <= maxTokens) return { history, effects: [] };
  const systemsBefore = (position: number) => {
    let tokens = 0;
    for (const system of index.systemPositionsBefore(position)) tokens += index.tokensAt(counter, system);
    return tokens;
  };
  const keptFrom = (start: number) =>
    TOKENS_TO_PRIME_REPLY + systemsBefore(start) + index.tokensBefore(counter, index.length) - index.tokensBefore(counter, start);
  // Rounds kept shrink as the first kept round moves on; the last round always stays.
  let first = 1;
  while (first < index.rounds - 1 && keptFrom(index.roundStart(first)) > maxTokens) first += 1;
  const cut = index.rounds > 1 ? index.roundStart(first) : 0;
  if (cut === 0) return { history, effects: [] };
  const systems = toRanges(index.systemPositionsBefore(cut));
  return {
    history: keepRanges(history, [...systems, [cut, history.length]]),
    effects: [{ kind: "dropped", before: complementRanges(systems, cut), after: [] }],
  };
}
