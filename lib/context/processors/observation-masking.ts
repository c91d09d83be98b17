import type { Context } from "../context";
import { applyEdits } from "../history/edit";
import { indexOf } from "../history/index-of";
import type { Message } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STRATEGY_DEFAULTS, type ObservationMaskingSettings } from "../pipeline-spec";
import { STATE_KEYS } from "../state";
import { OutcomeCache } from "./outcome-cache";
import { activeRoundStart, checkFields, checkInteger, checkText, isPlaceholder, withPlaceholder } from "./strategy-support";

const NAME = "observation_masking";
const FIELDS: readonly (keyof ObservationMaskingSettings)[] = ["keepObservations", "placeholder"];

interface Outcome {
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/** Checks settings (E-CS5) and fills in the defaults. */
export function resolveObservationMaskingSettings(settings: Partial<ObservationMaskingSettings> = {}): Readonly<ObservationMaskingSettings> {
  checkFields(NAME, settings, FIELDS);
  const merged = { ...STRATEGY_DEFAULTS.observation_masking, ...settings };
  return Object.freeze({
    keepObservations: checkInteger(NAME, "keepObservations", merged.keepObservations, 0),
    placeholder: checkText(NAME, "placeholder", merged.placeholder),
  });
}

/**
 * Observation masking (E-CS2): the newest `keepObservations` tool results are
 * sent as they are; every older one reads `placeholder`. The calls stay, so
 * the model still sees what it did, and pairs stay whole (E-P1). Results of the
 * active round are never masked (E-CS6).
 * @example pipeline.register(new ObservationMaskingProcessor({ keepObservations: 5 }))
 */
export class ObservationMaskingProcessor extends ContextProcessor {
  override readonly preservesRounds = true;
  readonly settings: Readonly<ObservationMaskingSettings>;

  constructor(settings: Partial<ObservationMaskingSettings> = {}) {
    super("pre_llm_call", { name: NAME });
    this.settings = resolveObservationMaskingSettings(settings);
  }

  process(ctx: Context): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const key = `${this.settings.keepObservations}:${this.settings.placeholder}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, this.mask(history));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private mask(history: readonly Message[]): Outcome {
    const active = activeRoundStart(indexOf(history));
    const observations: number[] = [];
    for (let position = 0; position < history.length; position += 1) if (history[position].role === "tool") observations.push(position);
    const masked = observations
      .slice(0, Math.max(0, observations.length - this.settings.keepObservations))
      .filter((position) => position < active && !isPlaceholder(history[position], this.settings.placeholder));
    if (masked.length === 0) return { history, effects: [] };
    const { history: next } = applyEdits(
      history,
      masked.map((position) => ({ from: position, to: position + 1, messages: [withPlaceholder(history[position], this.settings.placeholder)] })),
    );
    return {
      history: next,
      effects: masked.map((position): MessageEffect => ({ kind: "masked", before: [[position, position + 1]], after: [[position, position + 1]] })),
    };
  }
}
