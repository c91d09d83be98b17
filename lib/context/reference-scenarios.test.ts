// The reference scenarios: each processor's basic cases, then one integration
// test with all processors composed in the recommended order (E-PL4).
import { describe, expect, it, vi } from "vitest";
import { makeConfig } from "./config";
import { defaultPipeline } from "./default-pipeline";
import { ContextError } from "./errors";
import { CONVERSATION_SUMMARY_PREFIX, findToolChains, isConversationSummary, splitRounds, TOOL_CHAIN_SUMMARY_PREFIX, type Message } from "./messages";
import { DialogueCompressor, MessageOffloader, RoundWindowProcessor, TokenBudgetProcessor, type ToolResultPayload } from "./processors";
import { hasIntactToolPairs } from "./sanitize";
import { STATE_KEYS } from "./state";
import type { Summarizer } from "./summarizer";
import { answer, calls, contextWith, handlesIn, historyOf, longText, result, system, toolCall, toolRound, user } from "./test-support/conversation";
import { TiktokenCounter } from "./tokens/counter";
import { reloadOffloaded } from "./tools";

const MARKER = /^\[\[OFFLOADED: handle=(off_[0-9a-f]{12})\]\]$/;

describe("reference: MessageOffloader", () => {
  it("[E-O1] within-limit untouched", () => {
    const history = [user("short"), answer("short too")];
    const ctx = contextWith(history);
    new MessageOffloader({ maxMessageSize: 20 }).process(ctx);
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-O1] oversized replaced", () => {
    const ctx = contextWith([user(longText(50))]);
    new MessageOffloader({ maxMessageSize: 20 }).process(ctx);
    expect(historyOf(ctx)[0].content).toMatch(MARKER);
  });

  it("[E-O1] system messages skipped", () => {
    const policy = system(longText(50));
    const ctx = contextWith([policy]);
    new MessageOffloader({ maxMessageSize: 20 }).process(ctx);
    expect(historyOf(ctx)[0]).toBe(policy);
  });

  it("[E-O1] handle stored", () => {
    const ctx = contextWith([user(longText(50))]);
    new MessageOffloader({ maxMessageSize: 20 }).process(ctx);
    const handle = MARKER.exec(historyOf(ctx)[0].content ?? "")![1];
    expect(ctx.state.get(STATE_KEYS.offloadedMessages)).toEqual({ [handle]: longText(50) });
  });
});

describe("reference: DialogueCompressor", () => {
  const summarizer = () => vi.fn<Summarizer>(async (messages) => `${messages.length} messages`);

  it("[E-R3] chain detection", () => {
    const history = [user("q"), calls(toolCall("a")), result("a", "r"), calls(toolCall("b")), result("b", "r"), answer("done")];
    expect(findToolChains(history)).toEqual([{ start: 1, end: 5, round: 0, closed: true }]);
  });

  it("[E-C1] single-chain compression", async () => {
    const ctx = contextWith(toolRound("q", "a", "r", "done"));
    await new DialogueCompressor({ summarizer: summarizer() }).process(ctx);
    expect(historyOf(ctx).map((message) => message.content)).toEqual(["q", `${TOOL_CHAIN_SUMMARY_PREFIX} 2 messages`, "done"]);
  });

  it("[E-C1] multi-chain", async () => {
    const ctx = contextWith([...toolRound("q1", "a", "r", "d1"), ...toolRound("q2", "a", "r", "d2")]);
    await new DialogueCompressor({ summarizer: summarizer() }).process(ctx);
    expect(historyOf(ctx).filter((message) => message.content?.startsWith(TOOL_CHAIN_SUMMARY_PREFIX))).toHaveLength(2);
    expect(historyOf(ctx)).toHaveLength(6);
  });

  it("[E-C1] mock summarizer", async () => {
    const history = toolRound("q", "a", "r", "done");
    const mock = summarizer();
    await new DialogueCompressor({ summarizer: mock }).process(contextWith(history));
    expect(mock).toHaveBeenCalledOnce();
    expect(mock.mock.calls[0][0]).toEqual(history.slice(1, 3));
  });
});

describe("reference: RoundWindowProcessor", () => {
  it("[E-R1] round boundary detection", () => {
    // Three example rounds: a plain answer, a multi-step tool sequence, an answer after tools.
    const history = [
      ...toolRound("r1", "a", "r", "a1"),
      user("r2"),
      answer("a2"),
      user("r3"),
      calls(toolCall("b")),
      result("b", "r"),
      calls(toolCall("c")),
      result("c", "r"),
      answer("a3"),
    ];
    expect(splitRounds(history).map((round) => [round.start, round.end])).toEqual([
      [0, 4],
      [4, 6],
      [6, 12],
    ]);
  });

  it("[E-R2] incomplete round preserved", () => {
    const incomplete = [user("q3"), calls(toolCall("a")), result("a", "r")];
    const ctx = contextWith([user("q1"), answer("a1"), user("q2"), answer("a2"), ...incomplete]);
    new RoundWindowProcessor({ maxRounds: 1 }).process(ctx);
    expect(historyOf(ctx)).toEqual(incomplete);
  });

  it("[E-W1] mixed sequences", () => {
    const history = [
      system("policy"),
      ...toolRound("q1", "a", "r", "a1"),
      user("q2"),
      answer("a2"),
      system("note"),
      ...toolRound("q3", "a", "r", "a3"),
      user("q4"),
    ];
    const ctx = contextWith(history);
    new RoundWindowProcessor({ maxRounds: 2 }).process(ctx);
    expect(historyOf(ctx)).toEqual([system("policy"), system("note"), ...toolRound("q3", "a", "r", "a3"), user("q4")]);
    expect(hasIntactToolPairs(historyOf(ctx))).toBe(true);
  });
});

describe("reference: TokenBudgetProcessor", () => {
  const history = [
    system("policy"),
    ...Array.from({ length: 5 }, (_, index) => [user(`q${index} ${longText(200)}`), answer(`a${index}`)]).flat(),
    user("last"),
  ];

  it("[E-B2] under-budget no-op", () => {
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 100_000 }).process(ctx, {});
    expect(historyOf(ctx)).toBe(history);
  });

  it("[E-B2] over-budget trimming", () => {
    const ctx = contextWith(history);
    new TokenBudgetProcessor({ maxTokens: 200 }).process(ctx, {});
    const counter = new TiktokenCounter({ encoding: "cl100k_base" });
    expect(counter.countMessages(historyOf(ctx))).toBeLessThanOrEqual(200);
    expect(historyOf(ctx).at(-1)).toBe(history.at(-1));
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)?.messages).toBeGreaterThan(0);
  });

  it("[E-B4] encoding selection", () => {
    const text = "日本語のテキストはトークナイザーによって数が違います。".repeat(30);
    const counts = (["cl100k_base", "o200k_base"] as const).map((encoding) =>
      new TiktokenCounter({ encoding }).countMessages([user("q"), answer("a"), user(text)]),
    );
    const budget = Math.floor((counts[0] + counts[1]) / 2);
    const remaining = (encoding: "cl100k_base" | "o200k_base") => {
      const ctx = contextWith([user("q"), answer("a"), user(text)]);
      new TokenBudgetProcessor({ maxTokens: budget, encoding }).process(ctx, {});
      return historyOf(ctx).length;
    };
    expect(counts[1]).toBeLessThan(counts[0]);
    expect([remaining("cl100k_base"), remaining("o200k_base")]).toEqual([1, 3]);
  });
});

describe("reference: reload_offloaded", () => {
  it("[E-O2] valid handle returns content", async () => {
    const ctx = contextWith([user(longText(50))]);
    new MessageOffloader({ maxMessageSize: 20 }).process(ctx);
    expect(await reloadOffloaded(ctx, handlesIn(historyOf(ctx))[0])).toBe(longText(50));
  });

  it("[E-O2] unknown handle raises error", async () => {
    await expect(reloadOffloaded(contextWith([]), "off_123456789abc")).rejects.toThrow(ContextError);
  });
});

describe("reference: integration, all processors in the recommended order", () => {
  const POLICY = system("# Airline Agent Policy\nHelp users book, modify or cancel reservations.");
  const BIG_RESULT = `{"flights": [${Array.from({ length: 60 }, (_, index) => `{"flight_number": "HAT${100 + index}", "price": ${200 + index}}`).join(", ")}]}`;
  const BIG_QUESTION = `Here is my whole itinerary: ${longText(1_500, "itinerary")}`;

  /** 12 complete rounds (odd ones call a tool; round 5's result is huge), then an incomplete 13th. */
  function conversation(): Message[] {
    const rounds = Array.from({ length: 12 }, (_, index) => {
      const number = index + 1;
      if (number % 2 === 0) return [user(`question ${number}`), answer(`answer ${number}`)];
      return toolRound(
        `question ${number}`,
        "call_0",
        number === 5 ? BIG_RESULT : `result ${number}: ${longText(600, "seat")}`,
        `answer ${number}`,
        "search_flights",
      );
    });
    return [
      POLICY,
      ...rounds.flat(),
      user(BIG_QUESTION),
      calls(toolCall("call_0", "get_user_details", '{"user_id":"mia_li_3668"}')),
      result("call_0", '{"name":"Mia Li"}', "get_user_details"),
    ];
  }

  async function run(budget: number) {
    const config = makeConfig("navigator", { extra: { token_budget: budget } });
    const ctx = contextWith(conversation(), config);
    const pipeline = defaultPipeline(config, { maxMessageSize: 1_000, maxToolResultSize: 500, now: () => 0 });
    const trace = await pipeline.fire("pre_llm_call", ctx);
    return { ctx, pipeline, trace, output: historyOf(ctx) };
  }

  it("[E-PL4] runs offload, compress, window, summarize, budget in order, each step handing on to the next", async () => {
    const { trace, output } = await run(100_000);
    expect(trace.steps.map((step) => step.processor)).toEqual(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]);
    trace.steps.slice(1).forEach((step, index) => {
      expect(step.historyBefore).toBe(trace.steps[index].historyAfter);
      expect(step.messagesBefore).toBe(trace.steps[index].messagesAfter);
      expect(step.tokensBefore).toBe(trace.steps[index].tokensAfter);
    });
    expect(trace.steps.at(-1)?.tokensAfter).toBe(new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(output));
    // E-PL5: the compressor leaves the chains of rounds 1 and 3, which the window drops next, as they are; C3: round 5's too.
    expect(trace.steps.map((step) => step.messagesAfter)).toEqual([40, 37, 27, 7, 7]);
  });

  it("[E-O1][E-C1][E-C2][E-C3][E-W1][E-SU2][E-R2] offloads, compresses closed chains, windows to 10 rounds, summarises to the threshold and keeps the incomplete round", async () => {
    const { ctx, trace, output } = await run(100_000);
    const [offload, compress, window, summarize] = trace.steps;
    expect(offload.effects.map((effect) => effect.before)).toEqual([[[15, 16]], [[37, 38]]]);
    // Six closed chains (odd rounds); the incomplete round's chain stays, and so do those of rounds 1 and 3, which the window drops next (E-PL5),
    // and round 5's, whose result is already an offload marker shorter than any summary of it (E-C3).
    expect(compress.effects.map((effect) => effect.before)).toEqual([[[20, 22]], [[26, 28]], [[32, 34]]]);
    expect(splitRounds(window.historyAfter)).toHaveLength(10);
    expect(summarize.effects[0].kind).toBe("summarised");
    const input = conversation();
    expect(output[0]).toBe(trace.steps[0].historyBefore[0]);
    expect(output[0]).toEqual(input[0]);
    expect(output[1].content?.startsWith(`${CONVERSATION_SUMMARY_PREFIX}\n`)).toBe(true);
    expect(output.filter((message) => message.role !== "system").map((message) => message.content)).toEqual([
      "question 12",
      "answer 12",
      output[4].content,
      null,
      '{"name":"Mia Li"}',
    ]);
    expect(output[4].content).toMatch(MARKER);
    expect(output.slice(-2)).toEqual(input.slice(-2));
    expect(hasIntactToolPairs(output)).toBe(true);
    expect(ctx.state.get(STATE_KEYS.needsSummary)).toBe(false);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)).toEqual({ messages: 0, tokensSaved: 0 });
  });

  it("[E-O2] every handle left in the context reloads its exact original", async () => {
    const { ctx, output } = await run(100_000);
    const handles = Object.keys(ctx.state.get(STATE_KEYS.offloadedMessages) ?? {});
    expect(handles).toHaveLength(2);
    expect(new Set(await Promise.all(handles.map((handle) => reloadOffloaded(ctx, handle))))).toEqual(new Set([BIG_RESULT, BIG_QUESTION]));
    for (const handle of handlesIn(output)) expect([BIG_RESULT, BIG_QUESTION]).toContain(await reloadOffloaded(ctx, handle));
  });

  it("[E-B2] a budget just under what summarising left drops the last complete round, and only it", async () => {
    const { trace } = await run(100_000);
    const summarised = trace.steps[3].tokensAfter;
    const { ctx, output } = await run(summarised - 1);
    expect(output.filter((message) => message.role !== "system")).toHaveLength(3);
    expect(output.filter(isConversationSummary)).toHaveLength(1);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetTrimmed)?.messages).toBe(2);
    expect(ctx.state.has(STATE_KEYS.tokenBudgetExceeded)).toBe(false);
  });

  it("[E-B3] a budget below the smallest valid history keeps it valid and reports the exact tokens", async () => {
    const { ctx, output } = await run(50);
    const tokens = new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(output);
    expect(ctx.state.get(STATE_KEYS.tokenBudgetExceeded)).toEqual({ budget: 50, tokens });
    expect(hasIntactToolPairs(output)).toBe(true);
    expect(output[0]).toEqual(POLICY);
  });

  it("[E-O4][E-B3] the same input gives the same output", async () => {
    expect((await run(300)).output).toEqual((await run(300)).output);
  });

  it("[E-O3] the same pipeline offloads a large tool result on post_tool_call", async () => {
    const { ctx, pipeline } = await run(100_000);
    const payload: ToolResultPayload = { tool_result: BIG_RESULT, tool_name: "search_flights", tool_call_id: "call_0" };
    const trace = await pipeline.fire("post_tool_call", ctx, payload);
    expect(trace.steps.map((step) => step.processor)).toEqual(["tool_result_offloader"]);
    expect(payload.tool_result).toContain(`of ${BIG_RESULT.length} characters`);
    expect(await reloadOffloaded(ctx, payload.offload_handle!)).toBe(BIG_RESULT);
  });
});
