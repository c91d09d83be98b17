// Invariants every processed history must keep, shared by the property and real-data tests.
import { expect } from "vitest";
import type { Context } from "../context";
import { isConversationSummary, isEngineSummary, splitRounds, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { STATE_KEYS } from "../state";
import { sharedCounter, TiktokenCounter } from "../tokens/counter";
import type { EncodingName } from "../tokens/encodings";
import { reloadOffloaded } from "../tools";
import { handlesIn } from "./conversation";

const MARKER = /^\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]$/;

/** Every system message the engine did not make is kept, in order (E-B5); the engine's own summaries may be replaced, shortened or dropped. */
export function expectSystemMessagesKept(input: readonly Message[], output: readonly Message[]): void {
  let cursor = -1;
  for (const message of input) {
    if (message.role !== "system") continue;
    const at = output.indexOf(message);
    if (at === -1) {
      expect(isConversationSummary(message), `system message dropped: ${message.content}`).toBe(true);
      continue;
    }
    expect(at).toBeGreaterThan(cursor);
    cursor = at;
  }
}

/** The incomplete last round ends the output: the same messages, or offloaded copies whose handle reloads the original. */
export async function expectIncompleteRoundKept(ctx: Context, input: readonly Message[], output: readonly Message[]): Promise<void> {
  const last = splitRounds(input).at(-1);
  if (!last || last.complete) return;
  const expected = last.indices.map((index) => input[index]);
  const tail = output.filter((message) => message.role !== "system").slice(-expected.length);
  expect(tail).toHaveLength(expected.length);
  for (const [offset, message] of tail.entries()) {
    const original = expected[offset];
    if (message === original) continue;
    expect(message).toEqual({ ...original, content: message.content });
    expect(message.tool_calls).toBe(original.tool_calls);
    const handle = MARKER.exec(message.content ?? "")?.[1];
    expect(handle, "a changed message of the incomplete round must be an offload marker").toBeDefined();
    expect(await reloadOffloaded(ctx, handle!)).toBe(original.content);
  }
  expect(splitRounds(output).at(-1)?.complete).toBe(false);
}

/**
 * Every handle in the output reloads to the exact content of an input message
 * (or, when the offloader ran after the compressor, of a chain summary it made).
 */
export async function expectHandlesReload(ctx: Context, input: readonly Message[], output: readonly Message[], { summariesToo = false } = {}): Promise<void> {
  const contents = new Set(input.map((message) => message.content));
  const isOriginal = (text: string) => contents.has(text) || (summariesToo && text.startsWith(TOOL_CHAIN_SUMMARY_PREFIX));
  // Handles written by the model or the user (E-M2) are text, not offloads.
  const written = new Set(handlesIn(input));
  for (const handle of handlesIn(output)) if (!written.has(handle)) expect(isOriginal(await reloadOffloaded(ctx, handle))).toBe(true);
  for (const [handle, original] of Object.entries(ctx.state.get(STATE_KEYS.offloadedMessages) ?? {})) {
    expect(await reloadOffloaded(ctx, handle)).toBe(original);
    expect(isOriginal(original)).toBe(true);
  }
}

/** The smallest valid history (E-B5): the user's system messages and the last round without the engine's summaries. */
export function smallestValidHistory(history: readonly Message[]): Message[] {
  const last = splitRounds(history).at(-1);
  const inLast = new Set(last?.indices ?? []);
  return history.filter((message, index) => (message.role === "system" && !isConversationSummary(message)) || (inLast.has(index) && !isEngineSummary(message)));
}

/**
 * Over budget only when it cannot be helped (E-B3, E-B5): when the budget
 * processor reports a stop, even the smallest valid history of what it
 * received does not fit, and that is what it left.
 */
export function expectNoAvoidableStop(ctx: Context, budgetInput: readonly Message[], output: readonly Message[], budget: number, encoding: EncodingName): void {
  const exceeded = ctx.state.get(STATE_KEYS.tokenBudgetExceeded);
  if (!exceeded) return;
  const smallest = smallestValidHistory(budgetInput);
  expect(sharedCounter(encoding).countMessages(smallest)).toBeGreaterThan(budget);
  expect(output).toEqual(smallest);
}

/** Within the budget, or over it with `token_budget_exceeded` holding the exact tokens (E-B3). */
export function expectBudgetMetOrExceeded(ctx: Context, output: readonly Message[], budget: number, encoding: EncodingName): void {
  const tokens = new TiktokenCounter({ encoding }).countMessages(output);
  const exceeded = ctx.state.get(STATE_KEYS.tokenBudgetExceeded);
  if (exceeded) {
    expect(exceeded).toEqual({ budget, tokens });
    expect(tokens).toBeGreaterThan(budget);
  } else {
    expect(tokens).toBeLessThanOrEqual(budget);
  }
}
