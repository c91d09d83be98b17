// Every model call of the 200 real tau-bench trajectories (sierra-research/tau-bench,
// MIT; see test-support/tau-bench.ts): the history before each assistant turn, run
// through the default pipeline in every mode at four budgets.
import { describe, expect, it } from "vitest";
import { AUTOMATION_MODES, makeConfig } from "./config";
import { Context } from "./context";
import { createProcessor, DEFAULT_PROCESSOR_ORDER, defaultPipeline } from "./default-pipeline";
import { isConversationSummary, splitRounds, type Message } from "./messages";
import { ContextProcessor, ProcessorPipeline } from "./pipeline";
import { hasIntactToolPairs } from "./sanitize";
import { STATE_KEYS } from "./state";
import { smallestValidHistory } from "./test-support/invariants";
import { allTrajectories, hasAllTrajectories } from "./test-support/tau-bench";
import { sharedCounter } from "./tokens/counter";

const BUDGETS = [1_000, 2_000, 4_000, 8_000];
/** Where the look-ahead (E-PL5) is also checked against a run without it (one budget: the run without it is cold every time). */
const COMPARED = new Set([4_000]);

/** Keeps no promise about rounds, so no processor before it looks ahead (E-PL5). */
class NoLookahead extends ContextProcessor {
  constructor() {
    super("pre_llm_call", { name: "no_lookahead" });
  }

  process(): void {}
}

/** The default pipeline with look-ahead switched off: every processor sees every round. */
function withoutLookahead(config: ReturnType<typeof makeConfig>): ProcessorPipeline {
  const pipeline = new ProcessorPipeline();
  for (const kind of DEFAULT_PROCESSOR_ORDER) {
    if (kind === "tool_result_offloader" || (kind === "message_offloader" && config.offloadThreshold === null)) continue;
    if (kind === "round_window") pipeline.register(new NoLookahead());
    pipeline.register(createProcessor(kind, config));
  }
  return pipeline;
}

async function outcome(pipeline: ProcessorPipeline, config: ReturnType<typeof makeConfig>, history: readonly Message[]) {
  const ctx = new Context("call", { config });
  ctx.state.set(STATE_KEYS.history, history);
  const trace = await pipeline.fire("pre_llm_call", ctx);
  const state = ctx.state;
  return {
    ctx,
    trace,
    output: state.get(STATE_KEYS.history) ?? [],
    decided: [
      state.get(STATE_KEYS.tokenBudgetTrimmed),
      state.get(STATE_KEYS.tokenBudgetExceeded),
      state.get(STATE_KEYS.needsSummary),
      state.get(STATE_KEYS.summaryCandidates),
    ],
  };
}
const counter = sharedCounter("cl100k_base");

/** The history before every assistant turn: what the model was called with. */
function callPoints(): { trajectory: number; taskId: number | string; at: number; history: Message[] }[] {
  return allTrajectories().flatMap(({ taskId, messages }, trajectory) =>
    messages.flatMap((message, at) => (message.role === "assistant" ? [{ trajectory, taskId, at, history: messages.slice(0, at) }] : [])),
  );
}

/** What makes an output invalid (E-B5): a user's system message lost or moved, the last round's turns lost, a broken tool pair. */
function problemsOf(input: readonly Message[], output: readonly Message[]): string[] {
  const problems: string[] = [];
  if (!hasIntactToolPairs(output)) problems.push("tool pairs");
  const kept = input.filter((message) => message.role === "system" && !isConversationSummary(message));
  if (kept.some((message, order) => output.filter((candidate) => candidate.role === "system" && !isConversationSummary(candidate))[order] !== message))
    problems.push("system messages");
  const last = splitRounds(input).at(-1);
  // The last round is incomplete before an assistant turn: every message of it stays, as it is (no message here is large enough to offload).
  const tail = last?.indices.map((index) => input[index]) ?? [];
  if (tail.some((message, offset) => output[output.length - tail.length + offset] !== message)) problems.push("last round");
  return problems;
}

describe(`every model call of the ${hasAllTrajectories ? 200 : "sample"} tau-bench trajectories`, () => {
  const points = callPoints();

  it("[E-B5][E-B3][E-P1][E-R2][E-PL5][E-I3] at 1,000, 2,000, 4,000 and 8,000 tokens in every mode: no invalid history, over budget only when even the smallest valid history does not fit, and the same history as without look-ahead", async () => {
    const invalid: string[] = [];
    const avoidable: string[] = [];
    const differ: string[] = [];
    const exceeded = new Map<string, number>();
    // The run without look-ahead works on copies: no identity it could share with the run it checks.
    const copies = allTrajectories().map(({ messages }) => structuredClone(messages));
    for (const mode of AUTOMATION_MODES) {
      for (const budget of BUDGETS) {
        const config = makeConfig(mode, { extra: { token_budget: budget, token_encoding: "cl100k_base" } });
        const pipeline = defaultPipeline(config);
        const reference = withoutLookahead(config);
        for (const { trajectory, taskId, at, history } of points) {
          const { ctx, trace, output, decided } = await outcome(pipeline, config, history);
          const where = `${mode} ${budget} task ${taskId} before message ${at}`;
          if (COMPARED.has(budget)) {
            const other = await outcome(reference, config, copies[trajectory].slice(0, at));
            try {
              expect(output).toEqual(other.output);
              expect(decided).toEqual(other.decided);
            } catch {
              differ.push(where);
            }
          }
          const problems = problemsOf(history, output);
          if (problems.length > 0) invalid.push(`${where}: ${problems.join(", ")}`);
          const stop = ctx.state.get(STATE_KEYS.tokenBudgetExceeded);
          const tokens = counter.countMessages(output);
          if (!stop && tokens > budget) invalid.push(`${where}: ${tokens} tokens over ${budget} with no stop reported`);
          if (!stop) continue;
          exceeded.set(`${mode} ${budget}`, (exceeded.get(`${mode} ${budget}`) ?? 0) + 1);
          const budgetInput = trace.steps.find((step) => step.processor === "token_budget")!.historyBefore;
          if (counter.countMessages(smallestValidHistory(budgetInput)) <= budget) avoidable.push(where);
          if (stop.tokens !== tokens) invalid.push(`${where}: the stop says ${stop.tokens} tokens, the history holds ${tokens}`);
        }
      }
    }
    expect(invalid).toEqual([]);
    expect(avoidable).toEqual([]);
    expect(differ).toEqual([]);
    if (hasAllTrajectories) {
      // The airline policy alone is 1,256 tokens: at 1,000 every call stops; at 8,000 stops are rare but happen.
      expect(points).toHaveLength(2_454);
      for (const mode of AUTOMATION_MODES) expect(exceeded.get(`${mode} 1000`)).toBe(points.length);
      expect(exceeded.get("copilot 8000") ?? 0).toBeLessThan(points.length / 10);
    }
  }, 300_000);
});
