// Window first (E-PL7): the pipeline runs the round window before the offloader and
// the compressor, and the result, the state and the trace are those of the run in
// registration order. Checked against that run over generated conversations grown
// by random appends and over every model call of the tau-bench trajectories
// (sierra-research/tau-bench, MIT; see test-support/tau-bench.ts), on copies that
// share no object with the run they check; and counted: after one appended turn
// at 100,000 messages, the positions copied and compared stay within what the
// window keeps.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeConfig, type ContextConfig } from "./config";
import { Context } from "./context";
import { buildPipeline, defaultPipelineSpec } from "./default-pipeline";
import { appendMessages } from "./history/index-of";
import { historyWork } from "./history/work";
import type { Message } from "./messages";
import type { PipelineTrace, ProcessorPipeline } from "./pipeline";
import { STATE_KEYS } from "./state";
import { conversationArbitrary } from "./test-support/arbitraries";
import { answer, calls, result, system, toolCall, user } from "./test-support/conversation";
import { inRegistrationOrder } from "./test-support/in-place";
import { allTrajectories } from "./test-support/tau-bench";

interface Settings {
  historyRounds: number;
  offloadThreshold: number;
  summaryThreshold: number | null;
  budget: number;
  maxMessageSize: number;
}

function configOf(settings: Settings): ContextConfig {
  return makeConfig("copilot", {
    historyRounds: settings.historyRounds,
    offloadThreshold: settings.offloadThreshold,
    summaryThreshold: settings.summaryThreshold,
    extra: { token_budget: settings.budget, token_encoding: "cl100k_base" },
  });
}

function pipelines(settings: Settings): { windowFirst: ProcessorPipeline; inPlace: ProcessorPipeline } {
  const config = configOf(settings);
  const windowFirst = buildPipeline(defaultPipelineSpec(), config, { maxMessageSize: settings.maxMessageSize });
  return { windowFirst, inPlace: inRegistrationOrder(windowFirst) };
}

/** A run's history, state and trace (every field but the clock's), each step's histories read out. */
async function outcome(pipeline: ProcessorPipeline, settings: Settings, history: readonly Message[]) {
  const ctx = new Context("run", { config: configOf(settings) });
  ctx.state.set(STATE_KEYS.history, history);
  const trace = await pipeline.fire("pre_llm_call", ctx);
  return { state: ctx.state.localObject(), steps: readSteps(trace) };
}

function readSteps(trace: PipelineTrace) {
  return trace.steps.map(({ ms: _ms, ...step }) => ({ ...step, historyBefore: [...step.historyBefore], historyAfter: [...step.historyAfter] }));
}

/** Each step receives the very array the step before it returned, whole histories made on first read included. */
function expectChained(trace: PipelineTrace): void {
  trace.steps.forEach((step, position) => {
    if (position > 0) expect(step.historyBefore).toBe(trace.steps[position - 1].historyAfter);
    expect(step.messagesBefore).toBe(step.historyBefore.length);
    expect(step.messagesAfter).toBe(step.historyAfter.length);
  });
}

const settingsArbitrary: fc.Arbitrary<Settings> = fc.record({
  historyRounds: fc.integer({ min: 1, max: 4 }),
  offloadThreshold: fc.integer({ min: 0, max: 12 }),
  summaryThreshold: fc.option(fc.integer({ min: 2, max: 20 }), { freq: 3 }),
  budget: fc.integer({ min: 200, max: 6_000 }),
  maxMessageSize: fc.integer({ min: 40, max: 2_000 }),
});

describe("window first (E-PL7)", () => {
  it("[E-PL7][E-PL5][E-PL2] over generated conversations grown by random appends: the same history, state and trace as the run in registration order", async () => {
    await fc.assert(
      fc.asyncProperty(settingsArbitrary, conversationArbitrary, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), async (settings, whole, cuts) => {
        const { windowFirst, inPlace } = pipelines(settings);
        const ends = [...new Set(cuts.map((cut) => 1 + (cut % whole.length)))].sort((a, b) => a - b);
        let history: readonly Message[] = [];
        for (const end of ends) {
          // Appended to the array before, as a conversation grows; the run it is checked against gets fresh copies.
          history = appendMessages(history, whole.slice(history.length, end));
          const ctx = new Context("run", { config: configOf(settings) });
          ctx.state.set(STATE_KEYS.history, history);
          const trace = await windowFirst.fire("pre_llm_call", ctx);
          expectChained(trace);
          const expected = await outcome(inPlace, settings, structuredClone(history));
          expect({ state: ctx.state.localObject(), steps: readSteps(trace) }).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it("[E-PL7][E-PL5] at every model call of the tau-bench trajectories, each call appended to the one before: the same history, state and trace as the run in registration order", async () => {
    const settings: Settings = { historyRounds: 2, offloadThreshold: 6, summaryThreshold: 8, budget: 3_000, maxMessageSize: 400 };
    const { windowFirst, inPlace } = pipelines(settings);
    let calls = 0;
    for (const { messages } of allTrajectories()) {
      let history: readonly Message[] = [];
      for (const [at, message] of messages.entries()) {
        if (message.role !== "assistant") continue;
        history = appendMessages(history, messages.slice(history.length, at));
        const ctx = new Context("call", { config: configOf(settings) });
        ctx.state.set(STATE_KEYS.history, history);
        const trace = await windowFirst.fire("pre_llm_call", ctx);
        const expected = await outcome(inPlace, settings, structuredClone(history));
        expect({ state: ctx.state.localObject(), steps: readSteps(trace) }).toEqual(expected);
        calls += 1;
      }
    }
    expect(calls).toBeGreaterThan(0);
  }, 300_000);

  it("[E-PL7][E-I3] after one appended turn at 100,000 messages, the run copies and compares only what the window keeps", async () => {
    const settings: Settings = { historyRounds: 20, offloadThreshold: 50, summaryThreshold: 10, budget: 8_000, maxMessageSize: 200 };
    const { windowFirst } = pipelines(settings);
    const history: Message[] = [system("You are an airline agent.")];
    for (let round = 0; history.length < 100_000; round += 1) {
      const id = `call_${round}`;
      history.push(user(`Question ${round}`), calls(toolCall(id)), result(id, `Result ${round} `.repeat(round % 7 === 0 ? 40 : 1)), answer(`Answer ${round}`));
    }
    const run = async (messages: readonly Message[]) => {
      const ctx = new Context("run", { config: configOf(settings) });
      ctx.state.set(STATE_KEYS.history, messages);
      const trace = await windowFirst.fire("pre_llm_call", ctx);
      return { trace, output: ctx.state.get(STATE_KEYS.history) ?? [] };
    };
    const cold = await run(history);
    // What the window keeps: no processor lays out a longer history than that, and each lays out at most one.
    const bound = cold.trace.steps.length * cold.trace.steps.find((step) => step.processor === "round_window")!.messagesAfter;

    const before = historyWork();
    const appended = appendMessages(history, [user("One more thing: what is my baggage allowance?")]);
    const { trace, output } = await run(appended);
    const work = historyWork();
    expect(work.compared - before.compared).toBe(0);
    expect(work.copied - before.copied).toBeLessThanOrEqual(bound + cold.trace.steps.length);
    expect(trace.steps[0].messagesBefore).toBe(appended.length);
    expect(output.at(-1)).toBe(appended.at(-1));

    // A plain spread costs one identity comparison per shared position, and no more copying.
    const spread = [...history, user("And my seat?")];
    const compared = historyWork().compared;
    const copied = historyWork().copied;
    await run(spread);
    expect(historyWork().compared - compared).toBe(history.length);
    expect(historyWork().copied - copied).toBeLessThanOrEqual(bound + cold.trace.steps.length);

    // Reading a step's whole history makes it then, once.
    const madeBefore = historyWork().copied;
    const offloaded = trace.steps[0].historyAfter;
    expect(offloaded).toHaveLength(trace.steps[0].messagesAfter);
    expect(trace.steps[1].historyBefore).toBe(offloaded);
    expect(historyWork().copied - madeBefore).toBeLessThanOrEqual(offloaded.length);
  }, 120_000);
});
