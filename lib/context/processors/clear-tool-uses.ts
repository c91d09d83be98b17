import type { Context } from "../context";
import { applyEdits, type HistoryEdit } from "../history/edit";
import { indexOf } from "../history/index-of";
import type { Message, ToolDefinition } from "../messages";
import { ContextProcessor, type MessageEffect, type ProcessorResult } from "../pipeline";
import { STRATEGY_DEFAULTS, type ClearToolUsesSettings } from "../pipeline-spec";
import { STATE_KEYS } from "../state";
import { sharedCounter } from "../tokens/counter";
import { resolveEncoding } from "../tokens/resolve";
import { OutcomeCache } from "./outcome-cache";
import {
  activeRoundStart,
  checkBoolean,
  checkFields,
  checkInteger,
  checkNames,
  checkText,
  isPlaceholder,
  toolUses,
  withPlaceholder,
  type ToolUse,
} from "./strategy-support";

const NAME = "clear_tool_uses";
const FIELDS: readonly (keyof ClearToolUsesSettings)[] = [
  "triggerTokens",
  "keepToolUses",
  "clearAtLeastTokens",
  "excludeTools",
  "clearToolInputs",
  "placeholder",
];

/** Arguments a cleared call is left with: an empty object, still valid JSON for any client. */
const CLEARED_ARGUMENTS = "{}";

interface Outcome {
  history: readonly Message[];
  effects: MessageEffect[];
}

const outcomes = new OutcomeCache<Outcome>();

/** Checks settings (E-CS5) and fills in the defaults. */
export function resolveClearToolUsesSettings(settings: Partial<ClearToolUsesSettings> = {}): Readonly<ClearToolUsesSettings> {
  checkFields(NAME, settings, FIELDS);
  const merged = { ...STRATEGY_DEFAULTS.clear_tool_uses, ...settings };
  return Object.freeze({
    triggerTokens: checkInteger(NAME, "triggerTokens", merged.triggerTokens, 0),
    keepToolUses: checkInteger(NAME, "keepToolUses", merged.keepToolUses, 0),
    clearAtLeastTokens: checkInteger(NAME, "clearAtLeastTokens", merged.clearAtLeastTokens, 0),
    excludeTools: checkNames(NAME, "excludeTools", merged.excludeTools),
    clearToolInputs: checkBoolean(NAME, "clearToolInputs", merged.clearToolInputs),
    placeholder: checkText(NAME, "placeholder", merged.placeholder),
  });
}

/**
 * Anthropic-style tool-result clearing (E-CS1): once the request (history and
 * tools) passes `triggerTokens`, the results of all but the newest
 * `keepToolUses` tool uses read `placeholder` (and, with `clearToolInputs`,
 * their calls' arguments read `{}`), provided at least `clearAtLeastTokens`
 * go. Excluded tools are never cleared; the active round is never touched (E-CS6);
 * calls and results stay paired (E-P1).
 * @example pipeline.register(new ClearToolUsesProcessor({ triggerTokens: 30_000, keepToolUses: 3 }))
 */
export class ClearToolUsesProcessor extends ContextProcessor<{ tools?: readonly ToolDefinition[] }> {
  override readonly preservesRounds = true;
  readonly settings: Readonly<ClearToolUsesSettings>;
  private readonly key: string;

  constructor(settings: Partial<ClearToolUsesSettings> = {}) {
    super("pre_llm_call", { name: NAME });
    this.settings = resolveClearToolUsesSettings(settings);
    this.key = JSON.stringify(this.settings);
  }

  process(ctx: Context, payload: { tools?: readonly ToolDefinition[] } = {}): ProcessorResult {
    const history = ctx.state.get(STATE_KEYS.history) ?? [];
    const counter = sharedCounter(resolveEncoding(ctx.config));
    const toolTokens = counter.countTools(payload?.tools);
    const key = `${this.key}:${counter.encoding}:${toolTokens}`;
    const outcome = outcomes.get(history, key) ?? outcomes.set(history, key, this.clear(history, toolTokens, counter));
    if (outcome.history === history) return {};
    ctx.state.set(STATE_KEYS.history, outcome.history);
    return { effects: outcome.effects };
  }

  private clear(history: readonly Message[], toolTokens: number, counter: ReturnType<typeof sharedCounter>): Outcome {
    const index = indexOf(history);
    const unchanged = { history, effects: [] };
    if (index.tokens(counter) + toolTokens <= this.settings.triggerTokens) return unchanged;
    const excluded = new Set(this.settings.excludeTools);
    const counted = toolUses(history).filter((use) => !excluded.has(use.name));
    const active = activeRoundStart(index);
    // E-CS1: the newest uses stay; CS6: nothing of the active round is touched.
    const older = counted.slice(0, Math.max(0, counted.length - this.settings.keepToolUses)).filter((use) => use.resultAt < active);
    const results = older.filter((use) => !isPlaceholder(history[use.resultAt], this.settings.placeholder));
    const inputs = this.settings.clearToolInputs
      ? older.filter((use) => history[use.callAt].tool_calls![use.callOrdinal].function.arguments !== CLEARED_ARGUMENTS)
      : [];
    const changes = new Map<number, Message>();
    let saved = 0;
    for (const use of results) {
      const replacement = withPlaceholder(history[use.resultAt], this.settings.placeholder);
      saved += index.tokensAt(counter, use.resultAt) - counter.countMessage(replacement);
      changes.set(use.resultAt, replacement);
    }
    for (const [callAt, ordinals] of byCallMessage(inputs)) {
      const replacement = clearedCalls(history[callAt], ordinals);
      saved += index.tokensAt(counter, callAt) - counter.countMessage(replacement);
      changes.set(callAt, replacement);
    }
    // E-CS1: a clearing too small to matter is not worth breaking the prompt cache for.
    if (changes.size === 0 || saved < this.settings.clearAtLeastTokens) return unchanged;
    const positions = [...changes.keys()].sort((a, b) => a - b);
    const edits: HistoryEdit[] = positions.map((position) => ({ from: position, to: position + 1, messages: [changes.get(position)!] }));
    const { history: next } = applyEdits(history, edits);
    const effects = positions.map(
      (position): MessageEffect => ({
        kind: "cleared",
        before: [[position, position + 1]],
        after: [[position, position + 1]],
        note: history[position].role === "tool" ? "tool result" : "tool input",
      }),
    );
    return { history: next, effects };
  }
}

const clearedInputs = new WeakMap<Message, Map<string, Message>>();

function byCallMessage(uses: readonly ToolUse[]): Map<number, number[]> {
  const grouped = new Map<number, number[]>();
  for (const use of uses) grouped.set(use.callAt, [...(grouped.get(use.callAt) ?? []), use.callOrdinal]);
  return grouped;
}

/** The call message with the given calls' arguments cleared; ids and names stay, so every result keeps its call (E-P1). */
function clearedCalls(message: Message, ordinals: readonly number[]): Message {
  const key = [...ordinals].sort((a, b) => a - b).join(",");
  let byOrdinals = clearedInputs.get(message);
  if (!byOrdinals) {
    byOrdinals = new Map();
    clearedInputs.set(message, byOrdinals);
  }
  let cleared = byOrdinals.get(key);
  if (!cleared) {
    const calls = message.tool_calls!.map((call, ordinal) =>
      ordinals.includes(ordinal) ? { ...call, function: { ...call.function, arguments: CLEARED_ARGUMENTS } } : call,
    );
    cleared = { ...message, tool_calls: calls };
    byOrdinals.set(key, cleared);
  }
  return cleared;
}
