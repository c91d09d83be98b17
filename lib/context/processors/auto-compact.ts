import type { Context } from "../context";
import { indexOf } from "../history/index-of";
import { isConversationSummary, type Message, type ToolDefinition } from "../messages";
import { ContextProcessor, type ProcessorResult } from "../pipeline";
import { STRATEGY_DEFAULTS, type AutoCompactSettings } from "../pipeline-spec";
import { isUserSystemMessage } from "../request/verdict";
import { STATE_KEYS } from "../state";
import { extractiveSummarizer, type Summarizer } from "../summarizer";
import { DEFAULT_CONTEXT_WINDOW } from "../tokens/budget";
import { sharedCounter } from "../tokens/counter";
import { resolveEncoding } from "../tokens/resolve";
import { identity, OutcomeCache } from "./outcome-cache";
import { checkFields, checkFraction, checkInteger } from "./strategy-support";
import { replaceBySummary, summaryOf } from "./summarize";

const NAME = "auto_compact";
const FIELDS: readonly (keyof AutoCompactSettings)[] = ["fraction", "keepRounds"];

export interface AutoCompactOptions extends Partial<AutoCompactSettings> {
  /** Default: the engine's extractive summarizer. */
  summarizer?: Summarizer;
}

interface Outcome {
  history: readonly Message[];
  effects: ProcessorResult["effects"];
}

const outcomes = new OutcomeCache<Outcome>();

/** Checks settings (E-CS5) and fills in the defaults. */
export function resolveAutoCompactSettings(settings: Partial<AutoCompactSettings> = {}): Readonly<AutoCompactSettings> {
  checkFields(NAME, settings, FIELDS);
  const merged = { ...STRATEGY_DEFAULTS.auto_compact, ...settings };
  return Object.freeze({ fraction: checkFraction(NAME, "fraction", merged.fraction), keepRounds: checkInteger(NAME, "keepRounds", merged.keepRounds, 1) });
}

/**
 * Claude-Code-style auto-compaction (E-CS3): when the request (history and
 * tools) passes `fraction` of the context window (`extra.context_window`),
 * everything before the newest `keepRounds` rounds, except the user's system
 * messages, becomes one `[Conversation Summary]` system message (E-M2) that
 * extends any earlier one, written by the injected summarizer. The active
 * round is always among the rounds kept (E-CS6).
 * @example pipeline.register(new AutoCompactProcessor({ fraction: 0.8, keepRounds: 2, summarizer: extractiveSummarizer }))
 */
export class AutoCompactProcessor extends ContextProcessor<{ tools?: readonly ToolDefinition[] }> {
  readonly settings: Readonly<AutoCompactSettings>;
  private readonly summarizer: Summarizer;

  constructor(options: AutoCompactOptions = {}) {
    super("pre_llm_call", { name: NAME });
    const { summarizer, ...settings } = options;
    this.settings = resolveAutoCompactSettings(settings);
    this.summarizer = summarizer ?? extractiveSummarizer;
  }

  async process(ctx: Context, payload: { tools?: readonly ToolDefinition[] } = {}): Promise<ProcessorResult> {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const counter = sharedCounter(resolveEncoding(ctx.config));
    const configured = ctx.config.extra.context_window;
    const window = typeof configured === "number" && configured > 0 ? configured : DEFAULT_CONTEXT_WINDOW;
    const threshold = Math.floor(this.settings.fraction * window);
    const tokens = indexOf(history).tokens(counter) + counter.countTools(payload?.tools);
    if (tokens <= threshold) return {};
    const key = `${this.settings.keepRounds}:${identity(this.summarizer)}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, await this.compact(history));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private async compact(history: readonly Message[]): Promise<Outcome> {
    // E-CS6: keepRounds ≥ 1, so the last round (the active one) is always kept.
    const cut = indexOf(history).startOfLastRounds(this.settings.keepRounds);
    const previousAt = history.findIndex((message, position) => position < cut && isConversationSummary(message));
    const picked: number[] = [];
    for (let position = 0; position < cut; position += 1) if (position !== previousAt && !isUserSystemMessage(history[position])) picked.push(position);
    if (picked.length === 0) return { history, effects: [] };
    const summary = await summaryOf(
      this.summarizer,
      picked.map((position) => history[position]),
      previousAt >= 0 ? history[previousAt] : undefined,
    );
    return replaceBySummary(history, picked, previousAt, summary);
  }
}
