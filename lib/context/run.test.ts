import { describe, expect, it } from "vitest";
import { makeConfig } from "./config";
import { Context } from "./context";
import { ProcessorPipeline } from "./pipeline";
import { RoundWindowProcessor } from "./processors";
import { processHistory } from "./run";
import { STATE_KEYS } from "./state";
import { answer, longText, system, user } from "./test-support/conversation";
import { TiktokenCounter } from "./tokens/counter";

const rounds = (count: number) => Array.from({ length: count }, (_, index) => [user(`q${index + 1}`), answer(`a${index + 1}`)]).flat();

describe("processHistory", () => {
  it("[E-CFG3] pilot's disabled offload threshold leaves the message offloader out of the default pipeline", async () => {
    const run = await processHistory([system("policy"), ...rounds(3), user(longText(12_000))], { config: makeConfig("pilot") });
    expect(run.trace.steps.map((step) => step.processor)).toEqual(["dialogue_compressor", "round_window", "summarize", "token_budget"]);
    expect(run.history.at(-1)?.content).toBe(longText(12_000));
  });

  it("[E-CFG3] the default pipeline offloads only once the history holds more than offloadThreshold non-system messages", async () => {
    const history = [system("policy"), ...rounds(3), user(longText(12_000))];
    const under = await processHistory(history, { config: makeConfig("copilot", { offloadThreshold: 7 }) });
    expect(under.history.at(-1)?.content).toBe(longText(12_000));
    const over = await processHistory(history, { config: makeConfig("copilot", { offloadThreshold: 6 }) });
    expect(over.history.at(-1)?.content).toMatch(/^\[\[OFFLOADED: handle=off_[0-9a-f]{12}\]\]$/);
  });

  it("[E-PL4] runs the default pipeline over a history in a fresh context and returns what the model would be sent", async () => {
    const history = [system("policy"), ...rounds(3), user(longText(12_000))];
    const run = await processHistory(history, { config: makeConfig("pilot", { offloadThreshold: 0, extra: { token_budget: 100_000 } }) });
    expect(run.trace.steps.map((step) => step.processor)).toEqual(["message_offloader", "dialogue_compressor", "round_window", "summarize", "token_budget"]);
    expect(run.history).toBe(run.context.state.get(STATE_KEYS.history));
    expect(run.history.at(-1)?.content).toMatch(/^\[\[OFFLOADED: handle=off_[0-9a-f]{12}\]\]$/);
    expect(Object.values(run.offloaded)).toEqual([longText(12_000)]);
    expect(run.trimmed).toEqual({ messages: 0, tokensSaved: 0 });
    expect(run.exceeded).toBeUndefined();
    expect(run.context.taskId).toBe("run");
  });

  it("[E-B3] reports the exceeded record", async () => {
    const run = await processHistory([system("policy"), user(longText(2_000))], { config: makeConfig("pilot", { extra: { token_budget: 10 } }) });
    expect(run.exceeded).toEqual({ budget: 10, tokens: new TiktokenCounter().countMessages(run.history) });
  });

  it("uses a given pipeline", async () => {
    const pipeline = new ProcessorPipeline().register(new RoundWindowProcessor({ maxRounds: 1 }));
    const run = await processHistory(rounds(3), { pipeline });
    expect(run.history).toEqual(rounds(3).slice(-2));
    expect(run.trace.steps).toHaveLength(1);
  });

  it("[E-B4] passes the request's tools to the budget", async () => {
    const tools = [{ type: "function" as const, function: { name: "search", description: longText(2_000) } }];
    const config = makeConfig("pilot", { extra: { context_window: new TiktokenCounter().countTools(tools) + 12 } });
    const history = [...rounds(5), user("last question")];
    expect((await processHistory(history, { config })).history).toEqual(history);
    expect((await processHistory(history, { config, tools })).history).toEqual([user("last question")]);
  });

  it("[E-F1] with a parent, reads the parent's state and never writes it", async () => {
    const root = new Context("conversation", { state: { title: "Trip", history: rounds(2) } });
    const run = await processHistory(rounds(12), { parent: root, config: makeConfig("navigator") });
    expect(run.context.parent).toBe(root);
    expect(run.context.state.get("title")).toBe("Trip");
    expect(root.state.get(STATE_KEYS.history)).toEqual(rounds(2));
    expect(root.state.localKeys().sort()).toEqual(["history", "title"]);
  });

  it("[E-F1] with a parent, runs with the config it was given, not the parent's", async () => {
    const root = new Context("conversation", { config: makeConfig("copilot") });
    const config = makeConfig("copilot", { historyRounds: 2, summaryThreshold: null, extra: { token_encoding: "o200k_base" } });
    const history = rounds(6);
    const run = await processHistory(history, { parent: root, config });
    expect(run.context.config).toBe(config);
    expect(run.history).toEqual(history.slice(-4));
    expect(run.trace.steps[0].tokensBefore).toBe(new TiktokenCounter({ encoding: "o200k_base" }).countMessages(history));
  });

  it("with a parent, leaves no run behind in the parent's children (the inspector re-runs on every change)", async () => {
    const root = new Context("conversation");
    for (let index = 0; index < 5; index += 1) await processHistory(rounds(2), { parent: root, taskId: `run ${index}` });
    expect(root.children).toEqual([]);
  });
});
