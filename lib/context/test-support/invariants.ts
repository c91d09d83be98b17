// Invariants every processed history must keep, shared by the property and real-data tests.
import { expect } from "vitest";
import type { Context } from "../context";
import { splitRounds, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "../messages";
import { isConversationSummary } from "../processors/summarize";
import { STATE_KEYS } from "../state";
import { TiktokenCounter } from "../tokens/counter";
import type { EncodingName } from "../tokens/encodings";
import { reloadOffloaded } from "../tools";
import { handlesIn } from "./conversation";

const MARKER = /^\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]$/;

/** Every input system message is kept, in order, unless it was an earlier summary a new one replaced. */
export function expectSystemMessagesKept(input: readonly Message[], output: readonly Message[]): void {
  const outputHasSummary = output.some(isConversationSummary);
  let cursor = -1;
  for (const message of input) {
    if (message.role !== "system") continue;
    const at = output.indexOf(message);
    if (at === -1) {
      expect(isConversationSummary(message) && outputHasSummary, `system message dropped: ${message.content}`).toBe(true);
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
  for (const handle of handlesIn(output)) expect(isOriginal(await reloadOffloaded(ctx, handle))).toBe(true);
  for (const [handle, original] of Object.entries(ctx.state.get(STATE_KEYS.offloadedMessages) ?? {})) {
    expect(await reloadOffloaded(ctx, handle)).toBe(original);
    expect(isOriginal(original)).toBe(true);
  }
}

/** Within the budget, or over it with `token_budget_exceeded` holding the exact tokens (B3). */
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
