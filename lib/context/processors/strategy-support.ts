// What the strategy processors (E-CS1–E-CS4) share: where the active round starts, which
// tool result answers which call, and how their settings are checked (E-CS5).
import { ContextError } from "../errors";
import type { HistoryIndex } from "../history/history-index";
import type { Message } from "../messages";
import { pairToolCalls, type ToolPair } from "../tool-pairs";

/** Where the active (unfinished) round starts; the history's length when the last round is complete (E-CS6). */
export function activeRoundStart(index: HistoryIndex): number {
  return index.rounds > 0 && !index.lastRoundComplete ? index.roundStart(index.rounds - 1) : index.length;
}

/** One tool use: the call (its message and place in `tool_calls`), the result that answers it, and the tool's name. */
export interface ToolUse extends ToolPair {
  name: string;
}

/** Every answered tool call in order of its result, paired by the one walk (E-P2), with the called tool's name. */
export function toolUses(history: readonly Message[]): ToolUse[] {
  return pairToolCalls(history).pairs.map(({ callAt, callOrdinal, resultAt }) => ({
    callAt,
    callOrdinal,
    resultAt,
    name: history[callAt].tool_calls![callOrdinal].function.name,
  }));
}

const placeholderCopies = new WeakMap<Message, Map<string, Message>>();

/**
 * The message with its content replaced by `placeholder` and its parts gone:
 * nothing of the original is sent. One copy per message and placeholder, so
 * re-runs keep its count (E-T6) and the prompt-cache prefix (E-RP5).
 */
export function withPlaceholder(message: Message, placeholder: string): Message {
  let byPlaceholder = placeholderCopies.get(message);
  if (!byPlaceholder) {
    byPlaceholder = new Map();
    placeholderCopies.set(message, byPlaceholder);
  }
  let copy = byPlaceholder.get(placeholder);
  if (!copy) {
    const { parts: _parts, ...rest } = message;
    copy = { ...rest, content: placeholder };
    byPlaceholder.set(placeholder, copy);
  }
  return copy;
}

/** True for a message that already reads `placeholder` alone. */
export function isPlaceholder(message: Message, placeholder: string): boolean {
  return message.content === placeholder && message.parts === undefined;
}

/** CS5: an integer setting at least `minimum`, or a `ContextError` naming `processor.field`. */
export function checkInteger(processor: string, field: string, value: unknown, minimum: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < minimum) refuse(processor, field, `an integer ≥ ${minimum}`, value);
  return value;
}

/** CS5: a number in `(0, 1]`. */
export function checkFraction(processor: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0 || value > 1) refuse(processor, field, "a number above 0 and at most 1", value);
  return value;
}

/** CS5: a non-empty string. */
export function checkText(processor: string, field: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") refuse(processor, field, "a non-empty text", value);
  return value;
}

/** CS5: true or false. */
export function checkBoolean(processor: string, field: string, value: unknown): boolean {
  if (typeof value !== "boolean") refuse(processor, field, "true or false", value);
  return value;
}

/** CS5: a list of non-empty names. */
export function checkNames(processor: string, field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || value.some((name) => typeof name !== "string" || name === "")) refuse(processor, field, "a list of tool names", value);
  return Object.freeze([...(value as string[])]);
}

/** CS5: no field the processor does not know (a typo). */
export function checkFields(processor: string, settings: object, known: readonly string[]): void {
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) refuse(processor, "settings", "an object", settings);
  for (const key of Object.keys(settings))
    if (!known.includes(key)) refuse(processor, key, `one of ${known.join(", ")} (no such setting)`, (settings as Record<string, unknown>)[key]);
}

function refuse(processor: string, field: string, expected: string, value: unknown): never {
  const shown = typeof value === "string" ? `'${value}'` : Array.isArray(value) ? JSON.stringify(value) : String(value);
  throw new ContextError(`${processor}: ${field} must be ${expected}, got ${shown}`, { where: `${processor}.${field}` });
}
