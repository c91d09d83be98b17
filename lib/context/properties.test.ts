// Invariants that must hold for every conversation (STYLE.md: property tests),
// over generated conversations: system messages anywhere, parallel calls,
// reused ids, long contents, sometimes an incomplete last round.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeConfig, type AutomationMode, type ContextConfig } from "./config";
import { defaultPipeline } from "./default-pipeline";
import { ProcessorPipeline, type ContextProcessor } from "./pipeline";
import { DialogueCompressor, MessageOffloader, RoundWindowProcessor, SummarizeProcessor, TokenBudgetProcessor } from "./processors";
import { isConversationSummary } from "./messages";
import { hasIntactToolPairs } from "./sanitize";
import { STATE_KEYS } from "./state";
import { extractiveSummarizer } from "./summarizer";
import { findToolChains, splitRounds } from "./messages";
import { conversationArbitrary } from "./test-support/arbitraries";
import { contextWith, historyOf } from "./test-support/conversation";
import {
  expectBudgetMetOrExceeded,
  expectHandlesReload,
  expectIncompleteRoundKept,
  expectNoAvoidableStop,
  expectSystemMessagesKept,
} from "./test-support/invariants";
import type { EncodingName } from "./tokens/encodings";

// Generous: hundreds of pipeline runs per property, two test projects sharing two cores.
const TIMEOUT = 60_000;

const settingsArbitrary = fc.record({
  mode: fc.constantFrom<AutomationMode>("pilot", "copilot", "navigator"),
  historyRounds: fc.option(fc.integer({ min: 1, max: 8 }), { freq: 2 }),
  summaryThreshold: fc.option(fc.option(fc.integer({ min: 0, max: 20 }), { freq: 3 }), { freq: 2 }),
  budget: fc.integer({ min: 0, max: 5_000 }),
  encoding: fc.constantFrom<EncodingName>("cl100k_base", "o200k_base"),
  maxMessageSize: fc.integer({ min: 40, max: 3_000 }),
});

type Settings = typeof settingsArbitrary extends fc.Arbitrary<infer T> ? T : never;

function configOf(settings: Settings): ContextConfig {
  return makeConfig(settings.mode, {
    ...(settings.historyRounds === null ? {} : { historyRounds: settings.historyRounds }),
    ...(settings.summaryThreshold === null ? {} : { summaryThreshold: settings.summaryThreshold }),
    extra: { token_budget: settings.budget, token_encoding: settings.encoding },
  });
}

describe("structure properties", () => {
  it("[E-M2][E-R1][E-R3] rounds and chains follow roles, tool calls and engine marks, never what a message says (look-alike markers included)", () => {
    fc.assert(
      fc.property(conversationArbitrary, (history) => {
        const neutral = history.map((message) => ({ ...message, content: message.content === null ? null : "text" }));
        expect(splitRounds(history)).toEqual(splitRounds(neutral));
        expect(findToolChains(history)).toEqual(findToolChains(neutral));
      }),
      { numRuns: 300 },
    );
  });
});

describe("defaultPipeline properties", () => {
  it(
    "[E-P1][E-R2][E-O2][E-B3][E-B5][E-M2] for any conversation (marker look-alikes included), mode and budget: tool pairs intact, the user's system messages and the incomplete round kept, handles reload, budget met or exceeded exactly and only when unavoidable",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, settingsArbitrary, async (input, settings) => {
          const config = configOf(settings);
          const ctx = contextWith(input, config);
          const trace = await defaultPipeline(config, { maxMessageSize: settings.maxMessageSize }).fire("pre_llm_call", ctx);
          const output = historyOf(ctx);
          expect(hasIntactToolPairs(output)).toBe(true);
          expectSystemMessagesKept(input, output);
          await expectIncompleteRoundKept(ctx, input, output);
          await expectHandlesReload(ctx, input, output);
          expectBudgetMetOrExceeded(ctx, output, settings.budget, settings.encoding);
          expectNoAvoidableStop(ctx, trace.steps.at(-1)!.historyBefore, output, settings.budget, settings.encoding);
        }),
        { numRuns: 250 },
      );
    },
    TIMEOUT,
  );

  it(
    "[E-O4][E-B3] is deterministic: the same conversation gives the same output and state",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, settingsArbitrary, async (input, settings) => {
          const run = async () => {
            const config = configOf(settings);
            const ctx = contextWith(structuredClone(input), config);
            await defaultPipeline(config, { maxMessageSize: settings.maxMessageSize }).fire("pre_llm_call", ctx);
            return ctx.state.toObject();
          };
          expect(await run()).toEqual(await run());
        }),
        { numRuns: 100 },
      );
    },
    TIMEOUT,
  );

  it(
    "[E-P1][E-R2][E-SU2] holds turn after turn, re-run on its own output with the next user message appended (an agent loop)",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          conversationArbitrary,
          settingsArbitrary,
          fc.array(fc.constantFrom("next question", "and then?", "ok"), { minLength: 1, maxLength: 4 }),
          async (input, settings, turns) => {
            const config = configOf(settings);
            const pipeline = defaultPipeline(config, { maxMessageSize: settings.maxMessageSize });
            const ctx = contextWith(input, config);
            await pipeline.fire("pre_llm_call", ctx);
            for (const [turn, question] of turns.entries()) {
              const before = [...historyOf(ctx), { role: "assistant" as const, content: `reply ${turn}` }, { role: "user" as const, content: question }];
              ctx.state.set(STATE_KEYS.history, before);
              await pipeline.fire("pre_llm_call", ctx);
              const output = historyOf(ctx);
              expect(hasIntactToolPairs(output)).toBe(true);
              expectSystemMessagesKept(before, output);
              expect(output.at(-1)).toBe(before.at(-1));
              expect(output.filter(isConversationSummary).length).toBeLessThanOrEqual(Math.max(1, before.filter(isConversationSummary).length));
              await expectHandlesReload(ctx, [...input, ...before], output, { summariesToo: true });
              expectBudgetMetOrExceeded(ctx, output, settings.budget, settings.encoding);
            }
          },
        ),
        { numRuns: 150 },
      );
    },
    TIMEOUT,
  );

  it(
    "[E-S2] never changes the messages it was given",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, settingsArbitrary, async (input, settings) => {
          const copy = structuredClone(input);
          const config = configOf(settings);
          await defaultPipeline(config, { maxMessageSize: settings.maxMessageSize }).fire("pre_llm_call", contextWith(input, config));
          expect(input).toEqual(copy);
        }),
        { numRuns: 100 },
      );
    },
    TIMEOUT,
  );
});

const KINDS = ["offload", "compress", "window", "summarize", "budget"] as const;

function processorOf(kind: (typeof KINDS)[number], settings: Settings): ContextProcessor<object> {
  switch (kind) {
    case "offload":
      return new MessageOffloader({ maxMessageSize: settings.maxMessageSize });
    case "compress":
      return new DialogueCompressor({ summarizer: extractiveSummarizer, minChainLength: 1 + (settings.maxMessageSize % 3) });
    case "window":
      return new RoundWindowProcessor();
    case "summarize":
      return new SummarizeProcessor({ summarizer: settings.budget % 2 === 0 ? extractiveSummarizer : undefined });
    case "budget":
      return new TokenBudgetProcessor({ maxTokens: settings.budget });
  }
}

describe("any composition of processors (any subset, any order)", () => {
  it(
    "[E-P1][E-R2][E-O2] keeps tool pairs, system messages and the incomplete round, and every handle reloads",
    async () => {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, settingsArbitrary, fc.shuffledSubarray([...KINDS]), async (input, settings, kinds) => {
          const config = configOf(settings);
          const pipeline = new ProcessorPipeline();
          for (const kind of kinds) pipeline.register(processorOf(kind, settings));
          const ctx = contextWith(input, config);
          const trace = await pipeline.fire("pre_llm_call", ctx);
          const output = historyOf(ctx);
          expect(trace.steps).toHaveLength(kinds.length);
          expect(hasIntactToolPairs(output)).toBe(true);
          for (const step of trace.steps) expect(hasIntactToolPairs(step.historyAfter), step.processor).toBe(true);
          expectSystemMessagesKept(input, output);
          await expectIncompleteRoundKept(ctx, input, output);
          await expectHandlesReload(ctx, input, output, { summariesToo: true });
        }),
        { numRuns: 250 },
      );
    },
    TIMEOUT,
  );
});
