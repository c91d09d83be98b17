import { describe, expect, it } from "vitest";
import { makeConfig } from "../config";
import { createProcessor } from "../default-pipeline";
import { ContextError } from "../errors";
import { isConversationSummary, type Message } from "../messages";
import { ProcessorPipeline } from "../pipeline";
import { hasIntactToolPairs } from "../sanitize";
import { answer, calls, contextWith, historyOf, longText, result, system, toolCall, toolRound, user } from "../test-support/conversation";
import { sharedCounter } from "../tokens/counter";
import { AutoCompactProcessor } from "./auto-compact";
import { ClearToolUsesProcessor } from "./clear-tool-uses";
import { ObservationMaskingProcessor } from "./observation-masking";
import { TokenWindowProcessor } from "./token-window";

const config = makeConfig("pilot", { extra: { token_encoding: "o200k_base", context_window: 10_000 } });
const counter = sharedCounter("o200k_base");

/** `count` complete tool rounds, then an active round: a user turn, a call and its result. */
function conversation(count: number, size = 400): Message[] {
  const rounds = Array.from({ length: count }, (_, index) =>
    toolRound(`question ${index}`, `call_${index}`, `result ${index} ${longText(size)}`, `answer ${index}`, index % 2 === 0 ? "search" : "lookup"),
  ).flat();
  return [
    system("policy"),
    ...rounds,
    user("the active question"),
    calls(toolCall("call_active", "search")),
    result("call_active", `active result ${longText(size)}`, "search"),
  ];
}

/** The active round (E-CS6): from the last user turn on, the very same objects. */
function expectActiveRoundKept(input: readonly Message[], output: readonly Message[]): void {
  const start = input.findLastIndex((message) => message.role === "user");
  expect(output.slice(output.length - (input.length - start))).toEqual(input.slice(start));
  input.slice(start).forEach((message, offset) => expect(output[output.length - (input.length - start) + offset]).toBe(message));
}

describe("ClearToolUsesProcessor", () => {
  it("[E-CS1][E-CS6][E-P1] past the trigger, clears all but the newest tool uses and never the active round", () => {
    const input = conversation(6);
    const ctx = contextWith(input, config);
    const { effects } = new ClearToolUsesProcessor({ triggerTokens: 100, keepToolUses: 3 }).process(ctx, {});
    const output = historyOf(ctx);
    // 7 uses: the active one and the two before it stay; the four oldest are cleared.
    const cleared = output.filter((message) => message.content === "[tool result cleared]");
    expect(cleared).toHaveLength(4);
    expect(
      output
        .filter((message) => message.role === "tool")
        .slice(-3)
        .map((message) => message.content?.slice(0, 8)),
    ).toEqual(["result 4", "result 5", "active r"]);
    expect(effects).toHaveLength(4);
    expect(effects![0]).toMatchObject({ kind: "cleared", before: [[3, 4]], after: [[3, 4]], note: "tool result" });
    expect(hasIntactToolPairs(output)).toBe(true);
    expectActiveRoundKept(input, output);
  });

  it("[E-CS1] under the trigger, or when less than clearAtLeastTokens would go, nothing changes", () => {
    const input = conversation(6);
    const tokens = counter.countMessages(input);
    const under = contextWith(input, config);
    expect(new ClearToolUsesProcessor({ triggerTokens: tokens }).process(under, {})).toEqual({});
    expect(historyOf(under)).toBe(input);
    const small = contextWith(input, config);
    expect(new ClearToolUsesProcessor({ triggerTokens: 0, keepToolUses: 3, clearAtLeastTokens: 100_000 }).process(small, {})).toEqual({});
    expect(historyOf(small)).toBe(input);
  });

  it("[E-CS1] the trigger counts the request's tools too", () => {
    const input = conversation(4);
    const tokens = counter.countMessages(input);
    const tools = [{ type: "function" as const, function: { name: "search", description: "Search the bookings of a customer by name and date." } }];
    const ctx = contextWith(input, config);
    new ClearToolUsesProcessor({ triggerTokens: tokens, keepToolUses: 1 }).process(ctx, { tools });
    expect(historyOf(ctx)).not.toBe(input);
  });

  it("[E-CS1] excluded tools are never cleared; clearToolInputs empties the cleared calls' arguments and keeps ids", () => {
    const input = conversation(6);
    const ctx = contextWith(input, config);
    new ClearToolUsesProcessor({ triggerTokens: 0, keepToolUses: 1, excludeTools: ["lookup"], clearToolInputs: true }).process(ctx, {});
    const output = historyOf(ctx);
    const lookups = output.filter((message) => message.role === "tool" && message.name === "lookup");
    expect(lookups.every((message) => message.content?.startsWith("result"))).toBe(true);
    const searches = output.filter((message) => message.role === "tool" && message.name === "search").slice(0, -1);
    expect(searches.every((message) => message.content === "[tool result cleared]")).toBe(true);
    const clearedCalls = output.filter((message) => message.tool_calls?.[0].function.name === "search").slice(0, -1);
    expect(clearedCalls.map((message) => message.tool_calls![0].function.arguments)).toEqual(["{}", "{}", "{}"]);
    expect(clearedCalls.map((message) => message.tool_calls![0].id)).toEqual(["call_0", "call_2", "call_4"]);
    expect(hasIntactToolPairs(output)).toBe(true);
    expectActiveRoundKept(input, output);
  });

  it("[E-CS1][E-T6] a re-run over its own output changes nothing, and cleared copies are the same objects every run", () => {
    const input = conversation(5);
    const first = contextWith(input, config);
    new ClearToolUsesProcessor({ triggerTokens: 0, keepToolUses: 1 }).process(first, {});
    const again = contextWith(historyOf(first), config);
    expect(new ClearToolUsesProcessor({ triggerTokens: 0, keepToolUses: 1 }).process(again, {})).toEqual({});
    const other = contextWith([...input], config);
    new ClearToolUsesProcessor({ triggerTokens: 0, keepToolUses: 1 }).process(other, {});
    historyOf(other).forEach((message, index) => expect(message).toBe(historyOf(first)[index]));
  });

  it("[E-CS5] refuses wrong settings, naming the field", () => {
    expect(() => new ClearToolUsesProcessor({ keepToolUses: -1 })).toThrow(ContextError);
    expect(() => new ClearToolUsesProcessor({ keepToolUses: -1 })).toThrow(/clear_tool_uses: keepToolUses must be an integer ≥ 0, got -1/);
    const where = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as ContextError).where;
      }
    };
    expect(where(() => new ClearToolUsesProcessor({ triggerTokens: 1.5 }))).toBe("clear_tool_uses.triggerTokens");
    expect(where(() => new ClearToolUsesProcessor({ placeholder: " " }))).toBe("clear_tool_uses.placeholder");
    expect(where(() => new ClearToolUsesProcessor({ excludeTools: [""] }))).toBe("clear_tool_uses.excludeTools");
    expect(where(() => new ClearToolUsesProcessor({ trigger: 5 } as object))).toBe("clear_tool_uses.trigger");
  });
});

describe("ObservationMaskingProcessor", () => {
  it("[E-CS2][E-CS6][E-P1] keeps the newest results and masks the older ones; calls stay", () => {
    const input = conversation(5);
    const ctx = contextWith(input, config);
    const { effects } = new ObservationMaskingProcessor({ keepObservations: 2 }).process(ctx);
    const output = historyOf(ctx);
    const results = output.filter((message) => message.role === "tool");
    expect(results.map((message) => message.content === "[earlier tool result omitted]")).toEqual([true, true, true, true, false, false]);
    expect(output.filter((message) => message.tool_calls)).toEqual(input.filter((message) => message.tool_calls));
    expect(effects!.map((effect) => effect.kind)).toEqual(["masked", "masked", "masked", "masked"]);
    expect(output).toHaveLength(input.length);
    expect(hasIntactToolPairs(output)).toBe(true);
    expectActiveRoundKept(input, output);
  });

  it("[E-CS2][E-CS6] keepObservations 0 masks every result but the active round's", () => {
    const input = conversation(3);
    const ctx = contextWith(input, config);
    new ObservationMaskingProcessor({ keepObservations: 0 }).process(ctx);
    expectActiveRoundKept(input, historyOf(ctx));
    expect(historyOf(ctx).filter((message) => message.content === "[earlier tool result omitted]")).toHaveLength(3);
  });

  it("[E-CS5] refuses wrong settings", () => {
    expect(() => new ObservationMaskingProcessor({ keepObservations: Number.NaN })).toThrow(/observation_masking: keepObservations must be an integer ≥ 0/);
  });
});

describe("AutoCompactProcessor", () => {
  it("[E-CS3][E-CS6][E-M2] past fraction × window, summarises everything before the recent rounds; the user's system prompt stays", async () => {
    const input = conversation(8);
    const tokens = counter.countMessages(input);
    const small = makeConfig("pilot", { extra: { token_encoding: "o200k_base", context_window: tokens } });
    const ctx = contextWith(input, small);
    const { effects } = await new AutoCompactProcessor({ fraction: 0.5, keepRounds: 2 }).process(ctx, {});
    const output = historyOf(ctx);
    expect(output[0]).toBe(input[0]);
    expect(isConversationSummary(output[1])).toBe(true);
    expect(output[1].content).toContain("question 0");
    // The last complete round and the active one stay whole.
    expect(output.slice(2)).toEqual(input.slice(input.length - 7));
    expect(effects).toEqual([{ kind: "summarised", before: [[1, input.length - 7]], after: [[1, 2]] }]);
    expectActiveRoundKept(input, output);
  });

  it("[E-CS3] under the threshold nothing changes; a second compaction extends the first summary", async () => {
    const input = conversation(8);
    const tokens = counter.countMessages(input);
    const roomy = makeConfig("pilot", { extra: { token_encoding: "o200k_base", context_window: tokens * 2 } });
    const quiet = contextWith(input, roomy);
    expect(await new AutoCompactProcessor({ fraction: 0.6 }).process(quiet, {})).toEqual({});
    const tight = makeConfig("pilot", { extra: { token_encoding: "o200k_base", context_window: 100 } });
    const once = contextWith(input, tight);
    await new AutoCompactProcessor({ keepRounds: 4 }).process(once, {});
    const more = [...historyOf(once).slice(0, -3), answer("done"), ...toolRound("question 9", "call_9", "result 9", "answer 9"), user("next")];
    const twice = contextWith(more, tight);
    await new AutoCompactProcessor({ keepRounds: 1 }).process(twice, {});
    const summaries = historyOf(twice).filter(isConversationSummary);
    expect(summaries).toHaveLength(1);
    expect(summaries[0].content).toContain("question 0");
    expect(summaries[0].content).toContain("question 9");
  });

  it("[E-CS3] uses the injected summarizer", async () => {
    const ctx = contextWith(conversation(4), makeConfig("pilot", { extra: { context_window: 10 } }));
    await new AutoCompactProcessor({ keepRounds: 1, summarizer: async (messages) => `${messages.length} messages` }).process(ctx, {});
    expect(historyOf(ctx)[1].content).toBe("[Conversation Summary]\n16 messages");
  });

  it("[E-CS5] refuses a fraction outside (0, 1] and keepRounds below 1", () => {
    expect(() => new AutoCompactProcessor({ fraction: 0 })).toThrow(/auto_compact: fraction must be a number above 0 and at most 1/);
    expect(() => new AutoCompactProcessor({ keepRounds: 0 })).toThrow(/auto_compact: keepRounds must be an integer ≥ 1/);
  });
});

describe("TokenWindowProcessor", () => {
  it("[E-CS4][E-CS6] drops the oldest whole rounds until the history fits; system messages stay", () => {
    const input = conversation(6);
    const keep = [input[0], ...input.slice(-11)];
    const ctx = contextWith(input, config);
    const { effects } = new TokenWindowProcessor({ maxTokens: counter.countMessages(keep) }).process(ctx);
    expect(historyOf(ctx)).toEqual(keep);
    expect(effects).toEqual([{ kind: "dropped", before: [[1, input.length - 11]], after: [] }]);
    expect(hasIntactToolPairs(historyOf(ctx))).toBe(true);
  });

  it("[E-CS4][E-CS6] keeps the active round even when it alone is over", () => {
    const input = conversation(3);
    const ctx = contextWith(input, config);
    new TokenWindowProcessor({ maxTokens: 1 }).process(ctx);
    expect(historyOf(ctx)).toEqual([input[0], ...input.slice(-3)]);
  });

  it("[E-CS5] refuses maxTokens below 1", () => {
    expect(() => new TokenWindowProcessor({ maxTokens: 0 })).toThrow(/token_window: maxTokens must be an integer ≥ 1, got 0/);
  });
});

describe("strategy processors in a pipeline", () => {
  it("[E-PL1][E-PL2] are created by kind from tuning and record trace steps with their effects", async () => {
    const tuning = { observation_masking: { keepObservations: 1 }, token_window: { maxTokens: 2_000 } };
    const pipeline = new ProcessorPipeline();
    for (const kind of ["observation_masking", "token_window"] as const) pipeline.register(createProcessor(kind, config, { tuning }));
    const ctx = contextWith(conversation(6), config);
    const trace = await pipeline.fire("pre_llm_call", ctx);
    expect(trace.steps.map((step) => step.processor)).toEqual(["observation_masking", "token_window"]);
    expect(trace.steps[0].effects.every((effect) => effect.kind === "masked")).toBe(true);
    expect(trace.steps[1].tokensAfter).toBeLessThanOrEqual(2_000);
    expect(trace.steps[1].tokensAfter).toBe(counter.countMessages(historyOf(ctx)));
  });
});
