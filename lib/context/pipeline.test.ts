import { describe, expect, it } from "vitest";
import { makeConfig } from "./config";
import type { Context } from "./context";
import { buildPipeline, DEFAULT_PROCESSOR_ORDER, defaultPipeline, defaultPipelineSpec } from "./default-pipeline";
import { ContextError, ProcessorError } from "./errors";
import type { Message } from "./messages";
import { ContextProcessor, ProcessorPipeline, type ContextEvent, type PipelineTrace, type ProcessorResult } from "./pipeline";
import { DialogueCompressor, MessageOffloader, RoundWindowProcessor, SummarizeProcessor, TokenBudgetProcessor, ToolResultOffloader } from "./processors";
import { STATE_KEYS } from "./state";
import { answer, contextWith, historyOf, longText, system, user } from "./test-support/conversation";
import { TiktokenCounter } from "./tokens/counter";

/** A processor that logs its run and optionally replaces the history. */
class Step extends ContextProcessor {
  constructor(
    name: string,
    private readonly log: string[],
    private readonly change?: (history: readonly Message[]) => Message[],
    event: ContextEvent = "pre_llm_call",
  ) {
    super(event, { name });
  }

  process(ctx: Context): ProcessorResult {
    this.log.push(this.name);
    if (this.change) ctx.state.set(STATE_KEYS.history, this.change(historyOf(ctx)));
    return {};
  }
}

class Failing extends ContextProcessor {
  constructor() {
    super("pre_llm_call");
  }

  process(): never {
    throw new RangeError("bad index");
  }
}

const clock = () => {
  let now = 0;
  return () => (now += 5);
};

describe("ProcessorPipeline", () => {
  it("[E-PL1] runs processors in registration order, only those on the fired event", async () => {
    const log: string[] = [];
    const pipeline = new ProcessorPipeline()
      .register(new Step("b", log))
      .register(new Step("tool", log, undefined, "post_tool_call"))
      .register(new Step("a", log))
      .register(new Step("c", log));
    const trace = await pipeline.fire("pre_llm_call", contextWith([]));
    expect(log).toEqual(["b", "a", "c"]);
    expect(trace.steps.map((step) => step.processor)).toEqual(["b", "a", "c"]);
    await pipeline.fire("post_tool_call", contextWith([]));
    expect(log).toEqual(["b", "a", "c", "tool"]);
  });

  it("[E-PL1] registers, lists, unregisters and clears processors", () => {
    const log: string[] = [];
    const a = new Step("a", log);
    const tool = new Step("tool", log, undefined, "post_tool_call");
    const pipeline = new ProcessorPipeline().register(a).register(tool);
    expect(() => pipeline.register(a)).toThrow(ContextError);
    expect(pipeline.listProcessors()).toEqual([a, tool]);
    expect(pipeline.listProcessors("post_tool_call")).toEqual([tool]);
    expect(pipeline.hasProcessors("pre_llm_call")).toBe(true);
    pipeline.unregister(a).unregister(a);
    expect(pipeline.hasProcessors("pre_llm_call")).toBe(false);
    pipeline.clear();
    expect(pipeline.listProcessors()).toEqual([]);
  });

  it("[E-PL2] records one step per processor with messages and tokens before and after", async () => {
    const log: string[] = [];
    const history = [system("policy"), user("q1"), answer("a1"), user("q2")];
    const dropFirstRound = (messages: readonly Message[]) => [messages[0], messages[3]];
    const pipeline = new ProcessorPipeline({ now: clock() }).register(new Step("noop", log)).register(new Step("drop", log, dropFirstRound));
    const ctx = contextWith(history);
    const trace = await pipeline.fire("pre_llm_call", ctx);
    const counter = new TiktokenCounter({ encoding: "cl100k_base" });
    const after = historyOf(ctx);
    expect(trace.event).toBe("pre_llm_call");
    expect(
      trace.steps.map(({ processor, messagesBefore, messagesAfter, tokensBefore, tokensAfter, ms }) => ({
        processor,
        messagesBefore,
        messagesAfter,
        tokensBefore,
        tokensAfter,
        ms,
      })),
    ).toEqual([
      {
        processor: "noop",
        messagesBefore: 4,
        messagesAfter: 4,
        tokensBefore: counter.countMessages(history),
        tokensAfter: counter.countMessages(history),
        ms: 5,
      },
      {
        processor: "drop",
        messagesBefore: 4,
        messagesAfter: 2,
        tokensBefore: counter.countMessages(history),
        tokensAfter: counter.countMessages(after),
        ms: 5,
      },
    ]);
    expect(trace.steps[0].historyBefore).toBe(history);
    expect(trace.steps[0].historyAfter).toBe(history);
    expect(trace.steps[1].historyAfter).toBe(after);
    expect(trace.steps[0].stateKeys).toEqual([]);
    expect(trace.steps[1].stateKeys).toEqual([STATE_KEYS.history]);
  });

  it("[E-PL2] counts trace tokens with the context's encoding", async () => {
    const history = [user("Привет, как дела? Это тест.".repeat(10))];
    const pipeline = new ProcessorPipeline().register(new Step("noop", []));
    const o200k = await pipeline.fire("pre_llm_call", contextWith(history, makeConfig("copilot", { extra: { token_encoding: "o200k_base" } })));
    const cl100k = await pipeline.fire("pre_llm_call", contextWith(history));
    expect(o200k.steps[0].tokensBefore).toBe(new TiktokenCounter({ encoding: "o200k_base" }).countMessages(history));
    expect(cl100k.steps[0].tokensBefore).toBe(new TiktokenCounter({ encoding: "cl100k_base" }).countMessages(history));
    expect(o200k.steps[0].tokensBefore).not.toBe(cl100k.steps[0].tokensBefore);
  });

  it("[E-PL2] passes on the processors' effects and the state keys they wrote", async () => {
    const ctx = contextWith([user("q"), answer(longText(500))]);
    const trace = await new ProcessorPipeline()
      .register(new MessageOffloader({ maxMessageSize: 100 }))
      .register(new TokenBudgetProcessor())
      .fire("pre_llm_call", ctx);
    expect(trace.steps[0].effects).toEqual([expect.objectContaining({ kind: "offloaded", before: [[1, 2]], after: [[1, 2]] })]);
    expect(trace.steps[0].stateKeys.sort()).toEqual([STATE_KEYS.history, STATE_KEYS.offloadedMessages].sort());
    expect(trace.steps[1].stateKeys).toEqual([STATE_KEYS.tokenBudgetTrimmed]);
    expect(trace.steps[0].tokensAfter).toBeLessThan(trace.steps[0].tokensBefore);
  });

  it("[E-PL3] a throwing processor stops the run with a ProcessorError that carries the trace so far", async () => {
    const log: string[] = [];
    const pipeline = new ProcessorPipeline().register(new Step("first", log)).register(new Failing()).register(new Step("never", log));
    const error = await pipeline.fire("pre_llm_call", contextWith([user("q")])).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProcessorError);
    expect(error).toMatchObject({ processor: "Failing", event: "pre_llm_call" });
    expect((error as ProcessorError).cause).toBeInstanceOf(RangeError);
    expect((error as Error).message).toContain("bad index");
    const trace = (error as ProcessorError & { trace: PipelineTrace }).trace;
    expect(trace.steps.map((step) => step.processor)).toEqual(["first"]);
    expect(log).toEqual(["first"]);
  });

  it("[E-PL2] emits processor-start and processor-end, until unsubscribed", async () => {
    const seen: string[] = [];
    const pipeline = new ProcessorPipeline().register(new Step("a", []));
    const stopStart = pipeline.on("processor-start", ({ processor }) => seen.push(`start ${processor}`));
    pipeline.on("processor-end", ({ step }) => seen.push(`end ${step.processor}`));
    await pipeline.fire("pre_llm_call", contextWith([]));
    stopStart();
    await pipeline.fire("pre_llm_call", contextWith([]));
    expect(seen).toEqual(["start a", "end a", "end a"]);
  });

  it("[E-PL2] an empty history counts 0 tokens", async () => {
    const ctx = contextWith([]);
    ctx.state.delete(STATE_KEYS.history);
    const trace = await new ProcessorPipeline().register(new Step("a", [])).fire("pre_llm_call", ctx);
    expect(trace.steps[0]).toMatchObject({ messagesBefore: 0, tokensBefore: 0, tokensAfter: 0 });
  });

  it("names a processor after its class unless told otherwise", () => {
    expect(new Failing().name).toBe("Failing");
    expect(new Step("custom", []).name).toBe("custom");
  });
});

describe("defaultPipeline", () => {
  it("[E-PL4] registers offload, compress, window, summarize, budget on pre_llm_call and the result offloader on post_tool_call", () => {
    const pipeline = defaultPipeline(makeConfig());
    const pre = pipeline.listProcessors("pre_llm_call");
    expect(pre.map((processor) => processor.name)).toEqual(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]);
    expect(pre.map((processor) => processor.constructor)).toEqual([
      MessageOffloader,
      DialogueCompressor,
      RoundWindowProcessor,
      SummarizeProcessor,
      TokenBudgetProcessor,
    ]);
    expect(pipeline.listProcessors("post_tool_call").map((processor) => processor.constructor)).toEqual([ToolResultOffloader]);
    expect(DEFAULT_PROCESSOR_ORDER).toEqual(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget", "tool_result_offloader"]);
  });

  it("[E-PL4] takes its budget from the config and its sizes from the dependencies", () => {
    const pipeline = defaultPipeline(makeConfig("navigator", { extra: { token_budget: 2_000, token_encoding: "o200k_base" } }), {
      maxMessageSize: 300,
      maxToolResultSize: 400,
      minChainLength: 3,
    });
    const [offloader, compressor, , , budget] = pipeline.listProcessors("pre_llm_call");
    expect(offloader).toMatchObject({ maxMessageSize: 300 });
    expect(compressor).toMatchObject({ minChainLength: 3 });
    expect(budget).toMatchObject({ maxTokens: 2_000, encoding: "o200k_base" });
    expect(pipeline.listProcessors("post_tool_call")[0]).toMatchObject({ maxSize: 400 });
  });

  it("buildPipeline follows a spec's order and skips disabled entries", () => {
    const spec = defaultPipelineSpec().reverse();
    spec[1].enabled = false;
    const names = buildPipeline(spec, makeConfig())
      .listProcessors()
      .map((processor) => processor.name);
    expect(names).toEqual(["tool_result_offloader", "summarize", "round_window", "dialogue_compressor", "message_offloader"]);
  });
});
