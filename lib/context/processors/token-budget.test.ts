import { describe, expect, it } from "vitest";
import { makeConfig } from "../config";
import { BudgetExceededError, ProcessorError } from "../errors";
import type { Message, ToolDefinition } from "../messages";
import { ProcessorPipeline } from "../pipeline";
import { hasIntactToolPairs } from "../sanitize";
import { STATE_KEYS } from "../state";
import { isConversationSummary, isEngineSummary } from "../messages";
import {
  answer,
  calls,
  chainSummary,
  contextWith,
  conversationSummary,
  historyOf,
  longText,
  result,
  system,
  toolCall,
  toolRound,
  user,
} from "../test-support/conversation";
import { TiktokenCounter } from "../tokens/counter";
import { TokenBudgetProcessor } from "./token-budget";

const cl100k = new TiktokenCounter({ encoding: "cl100k_base" });
const tokens = (history: readonly Message[]) => cl100k.countMessages(history);
const POLICY = system("You are an airline agent. Follow the policy.");

/** Rounds of roughly 60 tokens each. */
const rounds = (count: number) =>
  Array.from({ length: count }, (_, index) => [user(`question ${index + 1}: ${longText(120)}`), answer(`answer ${index + 1}: ${longText(100)}`)]).flat();

describe("TokenBudgetProcessor", () => {
  it("[E-B2] under budget it changes nothing and records nothing trimmed", () => {
    const history = [POLICY, ...rounds(3)];
    const ctx = contextWith(history);
    ctx.state.set(STATE_KEYS.tokenBudgetExceeded, { budget: 1, tokens: 2 });
    expect(new TokenBudgetProcessor({ maxTokens: tokens(history) }).process(ctx, {}).effects).toEqual([]);
    expect(historyOf(ctx)).toBe(history);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)).toEqual({ messages: 0, tokensSaved: 0 });
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
  });

  it("[E-B2] over budget it drops the oldest whole rounds until the history fits, and no more", () => {
    const history = [POLICY, ...rounds(6)];
    const budget = tokens([POLICY, ...rounds(6).slice(6)]) + 5;
    const ctx = contextWith(history);
    const { effects } = new TokenBudgetProcessor({ maxTokens: budget }).process(ctx, {});
    const after = historyOf(ctx);
    expect(after).toEqual([POLICY, ...history.slice(7)]);
    expect(tokens(after)).toBeLessThanOrEqual(budget);
    expect(tokens([POLICY, ...history.slice(5)])).toBeGreaterThan(budget);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)).toEqual({ messages: 6, tokensSaved: tokens(history) - tokens(after) });
    expect(effects).toEqual([{ kind: "dropped", before: [[1, 7]], after: [] }]);
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
  });

  it("[E-B2] never drops a system message, wherever it stands", () => {
    const history = [POLICY, user("q1"), system("mid-round"), answer(longText(400)), system("between rounds"), ...rounds(2)];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: tokens([POLICY, system("mid-round"), system("between rounds"), ...rounds(2)]) }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, system("mid-round"), system("between rounds"), ...rounds(2)]);
  });

  it("[E-B2][E-P1] drops tool sequences only with their whole round, never half a pair", () => {
    const history = [
      POLICY,
      ...toolRound("q1", "call_0", longText(300), "a1"),
      user("q2"),
      calls(toolCall("call_0", "search", longText(200)), toolCall("call_1", "search", "{}")),
      result("call_1", longText(200)),
      result("call_0", "r"),
      answer("a2"),
      user("q3"),
      calls(toolCall("call_0")),
      result("call_0", "r3"),
    ];
    for (let budget = 20; budget <= tokens(history); budget += 25) {
      const ctx = contextWith(history);
      new TokenBudgetProcessor({ maxTokens: budget }).process(ctx, {});
      const after = historyOf(ctx);
      expect(hasIntactToolPairs(after)).toBe(true);
      // Only whole rounds go: the output is the policy plus the last one, two or three rounds.
      expect([history, [POLICY, ...history.slice(5)], [POLICY, ...history.slice(10)]]).toContainEqual(after);
    }
  });

  it("[E-B2][E-R2] never drops the incomplete round", () => {
    const incomplete = [user(longText(2_000)), calls(toolCall("call_0")), result("call_0", longText(1_000))];
    const history = [POLICY, ...rounds(3), ...incomplete];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 100 }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, ...incomplete]);
    historyOf(ctx)
      .slice(1)
      .forEach((message, index) => expect(message).toBe(incomplete[index]));
  });

  it("[E-B2] never drops the latest exchange when every round is complete", () => {
    const history = [POLICY, ...rounds(3)];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 10 }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, ...history.slice(-2)]);
  });

  it("[E-B3] when even the smallest valid history is over, writes token_budget_exceeded with its exact tokens", () => {
    const history = [POLICY, ...rounds(2), user(longText(3_000))];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 200 }).process(ctx, {});
    const after = historyOf(ctx);
    expect(after).toEqual([POLICY, history.at(-1)]);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetExceeded)).toEqual({ budget: 200, tokens: tokens(after) });
    expect(tokens(after)).toBeGreaterThan(200);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)).toEqual({ messages: 4, tokensSaved: tokens(history) - tokens(after) });
  });

  it("[E-B3] the over-budget result is deterministic: the same input gives the same output", () => {
    const history = [POLICY, ...rounds(4), user(longText(3_000))];
    const run = () => {
      const ctx = contextWith(structuredClone(history));
      new TokenBudgetProcessor({ maxTokens: 150 }).process(ctx, {});
      return [historyOf(ctx), ctx.state.get(STATE_KEYS.tokenBudgetTrimmed), ctx.state.get(STATE_KEYS.tokenBudgetExceeded)];
    };
    expect(run()).toEqual(run());
  });

  it("[E-B3] with onExceeded: 'throw' it also throws BudgetExceededError, after writing the result", () => {
    const history = [POLICY, user(longText(3_000))];
    const ctx = contextWith(history);
    let caught: unknown;
    try {
      new TokenBudgetProcessor({ maxTokens: 100, onExceeded: "throw" }).process(ctx, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BudgetExceededError);
    expect(caught).toMatchObject({ budget: 100, tokens: tokens(history) });
    expect(ctx.state.get(STATE_KEYS.tokenBudgetExceeded)).toEqual({ budget: 100, tokens: tokens(history) });
  });

  it("[E-B3][E-PL3] through the pipeline the BudgetExceededError reaches the caller as itself, with the trace so far", async () => {
    const ctx = contextWith([POLICY, user(longText(3_000))]);
    const pipeline = new ProcessorPipeline().register(new TokenBudgetProcessor({ maxTokens: 100, onExceeded: "throw" }));
    const error = await pipeline.fire("pre_llm_call", ctx).catch((failure: unknown) => failure);
    expect(BudgetExceededError.isInstance(error)).toBe(true);
    expect(ProcessorError.isInstance(error)).toBe(false);
    expect((error as BudgetExceededError).budget).toBe(100);
    expect((error as BudgetExceededError).trace?.steps).toEqual([]);
  });

  it("[E-B3] a later run under budget removes the stale exceeded record", () => {
    const ctx = contextWith([POLICY, user(longText(3_000))]);
    const processor = new TokenBudgetProcessor({ maxTokens: 100 });
    processor.process(ctx, {});
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(true);
    ctx.state.set(STATE_KEYS.history, [POLICY, ...rounds(3), user("short")]);
    processor.process(ctx, {});
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)?.messages).toBeGreaterThan(0);
  });

  it("[E-T1][E-B2] counts tool call arguments", () => {
    const history = [
      POLICY,
      user("q1"),
      calls(toolCall("call_0", "book", JSON.stringify({ notes: longText(2_000) }))),
      result("call_0", "ok"),
      answer("a1"),
      user("q2"),
    ];
    const withoutArgs = tokens(history) - cl100k.countText(history[2].tool_calls![0].function.arguments);
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: withoutArgs + 10 }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, user("q2")]);
  });

  it("[E-B4] extra.token_budget overrides the constructor's maxTokens", () => {
    const history = [POLICY, ...rounds(4)];
    const ctx = contextWith(history, makeConfig("copilot", { extra: { token_budget: tokens([POLICY, ...rounds(4).slice(6)]) } }));
    new TokenBudgetProcessor({ maxTokens: 1_000_000 }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, ...history.slice(-2)]);
  });

  it("[E-B4] extra.token_encoding overrides the constructor's encoding", () => {
    const text = "Привет, как дела? Это тест токенизатора для русского текста. ".repeat(20);
    const history = [user("q1"), answer("a1"), user(text)];
    const [cl, o200] = [new TiktokenCounter({ encoding: "cl100k_base" }), new TiktokenCounter({ encoding: "o200k_base" })].map((counter) =>
      counter.countMessages(history),
    );
    expect(o200).toBeLessThan(cl);
    const budget = Math.floor((cl + o200) / 2);
    // On cl100k_base the history is over the budget (the first round goes), on o200k_base it fits.
    const byConstructor = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: budget, encoding: "cl100k_base" }).process(byConstructor, {});
    expect(historyOf(byConstructor)).toHaveLength(1);
    const byConfig = contextWith(history, makeConfig("copilot", { extra: { token_encoding: "o200k_base" } }));
    new TokenBudgetProcessor({ maxTokens: budget, encoding: "cl100k_base" }).process(byConfig, {});
    expect(historyOf(byConfig)).toHaveLength(3);
    const configWins = contextWith(history, makeConfig("copilot", { extra: { token_encoding: "cl100k_base" } }));
    new TokenBudgetProcessor({ maxTokens: budget, encoding: "o200k_base" }).process(configWins, {});
    expect(historyOf(configWins)).toHaveLength(1);
  });

  it("[E-B4][E-B1] extra.context_window, max_output_tokens and the payload's tools cap the budget", () => {
    const tools: ToolDefinition[] = [
      {
        type: "function",
        function: {
          name: "search_flights",
          description: `Search direct flights. ${longText(800)}`,
          parameters: { type: "object", properties: { origin: { type: "string", description: "IATA code." } } },
        },
      },
    ];
    const config = makeConfig("copilot", { extra: { token_budget: 50_000, context_window: 8_000, max_output_tokens: 1_000 } });
    const processor = new TokenBudgetProcessor();
    const ctx = contextWith([POLICY], config);
    expect(processor.resolveBudget(ctx, tools)).toEqual({ budget: 8_000 - 1_000 - cl100k.countTools(tools), encoding: "cl100k_base", limitedByWindow: true });
    expect(processor.resolveBudget(contextWith([], makeConfig("copilot", { extra: { token_budget: 500, context_window: 8_000 } })))).toEqual({
      budget: 500,
      encoding: "cl100k_base",
      limitedByWindow: false,
    });
    expect(processor.resolveBudget(contextWith([]))).toEqual({ budget: 100_000, encoding: "cl100k_base", limitedByWindow: false });

    const history = [POLICY, ...rounds(4)];
    const window = tokens([POLICY, ...history.slice(-2)]) + 300 + cl100k.countTools(tools);
    const capped = contextWith(history, makeConfig("copilot", { extra: { context_window: window, max_output_tokens: 300 } }));
    new TokenBudgetProcessor({ maxTokens: 1_000_000 }).process(capped, { tools });
    expect(historyOf(capped)).toEqual([POLICY, ...history.slice(-2)]);
    const withoutTools = contextWith(history, makeConfig("copilot", { extra: { context_window: window, max_output_tokens: 300 } }));
    new TokenBudgetProcessor({ maxTokens: 1_000_000 }).process(withoutTools, {});
    expect(historyOf(withoutTools).length).toBeGreaterThan(3);
  });

  const SUMMARY = conversationSummary(
    Array.from({ length: 40 }, (_, index) => `- user: question ${index + 1} about reservation ${index}\n  assistant: answered ${index + 1}`).join("\n"),
  );

  it("[E-B5] a conversation summary that makes a fitting history go over budget is shortened to its newest lines that fit", () => {
    const last = [user(longText(400)), answer(longText(300))];
    const history = [POLICY, SUMMARY, ...last];
    const budget = tokens([POLICY, ...last]) + 150;
    expect(tokens(history)).toBeGreaterThan(budget);
    const ctx = contextWith(history);
    const { effects } = new TokenBudgetProcessor({ maxTokens: budget }).process(ctx, {});
    const after = historyOf(ctx);
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
    expect(tokens(after)).toBeLessThanOrEqual(budget);
    expect([after[0], ...after.slice(2)]).toEqual([POLICY, ...last]);
    expect(isConversationSummary(after[1])).toBe(true);
    expect(after[1].content).toMatch(/^\[Conversation Summary\]\n… \d+ earlier lines left out to fit the token budget\n/);
    expect(after[1].content?.endsWith("assistant: answered 40")).toBe(true);
    expect(effects).toEqual([{ kind: "truncated", before: [[1, 2]], after: [[1, 2]], note: expect.stringMatching(/^summary shortened to \d+ tokens$/) }]);
    // The same run again gives the same shortened message object (its count stays cached).
    const again = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: budget }).process(again, {});
    expect(historyOf(again)[1]).toBe(after[1]);
  });

  it("[E-B5] a summary not even one line of which fits is dropped, before any stop is reported", () => {
    const last = [user(longText(400))];
    const budget = tokens([POLICY, ...last]) + 10;
    const ctx = contextWith([POLICY, SUMMARY, ...rounds(2), ...last]);
    new TokenBudgetProcessor({ maxTokens: budget }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, ...last]);
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)?.messages).toBe(5);
  });

  it("[E-B5] chain summaries of the last round give way too; the user's turn and the answer stay", () => {
    const last = [user("q3"), chainSummary(longText(600)), answer("a3")];
    const budget = tokens([POLICY, last[0], last[2]]) + 5;
    const ctx = contextWith([POLICY, ...rounds(1), ...last]);
    new TokenBudgetProcessor({ maxTokens: budget }).process(ctx, {});
    expect(historyOf(ctx)).toEqual([POLICY, last[0], last[2]]);
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
  });

  it("[E-B5][E-M2] a system message that only reads like a summary is the user's: never shortened or dropped", () => {
    const lookalike = system(SUMMARY.content!);
    const history = [POLICY, lookalike, user("q")];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: tokens([POLICY, user("q")]) + 10 }).process(ctx, {});
    expect(historyOf(ctx)).toBe(history);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetExceeded)).toEqual({ budget: tokens([POLICY, user("q")]) + 10, tokens: tokens(history) });
  });

  it("[E-B3][E-B5] over budget means the smallest valid history is over: the user's system messages and the last round without engine summaries", () => {
    const last = [user(longText(2_000)), chainSummary("looked it up"), answer("done")];
    const history = [POLICY, SUMMARY, ...rounds(3), ...last];
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 300 }).process(ctx, {});
    const smallest = [POLICY, last[0], last[2]];
    expect(historyOf(ctx)).toEqual(smallest);
    expect(historyOf(ctx).some(isEngineSummary)).toBe(false);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetExceeded)).toEqual({ budget: 300, tokens: tokens(smallest) });
  });

  it("defaults to 100 000 tokens on cl100k_base", () => {
    expect(new TokenBudgetProcessor()).toMatchObject({ maxTokens: 100_000, encoding: "cl100k_base", event: "pre_llm_call", name: "token_budget" });
  });

  it("[E-B2] an empty history fits any budget", () => {
    const ctx = contextWith([]);
    new TokenBudgetProcessor({ maxTokens: 0 }).process(ctx, {});
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)).toEqual({ messages: 0, tokensSaved: 0 });
  });
});
