import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROCESSOR_ORDER } from "../pipeline-spec";
import { CONVERSATION_SUMMARY_PREFIX, splitRounds, type Message, type ToolDefinition } from "../messages";
import { hasIntactToolPairs } from "../sanitize";
import { conversationArbitrary } from "../test-support/arbitraries";
import { answer, calls, longText, result, system, toolCall, toolRound, user } from "../test-support/conversation";
import { sampleTrajectories } from "../test-support/tau-bench";
import { sharedCounter, TOKENS_TO_PRIME_REPLY } from "../tokens/counter";
import { buildPipeline } from "../default-pipeline";
import { TokenBudgetProcessor } from "../processors/token-budget";
import { buildRequest } from "./build";
import { coveredBySummary } from "./memory";
import { policyToEngine, type RequestPolicy } from "./policy";

const allOn = DEFAULT_PROCESSOR_ORDER.map((kind) => ({ kind, enabled: true }));
const allOff = DEFAULT_PROCESSOR_ORDER.map((kind) => ({ kind, enabled: false }));

function policy(overrides: Partial<RequestPolicy> = {}): RequestPolicy {
  return {
    mode: "copilot",
    historyRounds: 20,
    summaryThreshold: 10,
    offloadThreshold: 50,
    maxMessageSize: 10_000,
    maxToolResultSize: 5_000,
    processors: allOn,
    model: "gpt-4o",
    encoding: "o200k_base",
    contextWindow: 128_000,
    maxOutputTokens: 4_096,
    tokenBudget: null,
    reloadTool: true,
    retrievedMemories: 3,
    ...overrides,
  };
}

const weather: ToolDefinition = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("policyToEngine", () => {
  it("[E-B4] the budget reaches the pipeline once, as extra.token_budget: the hard budget, else the window", () => {
    const budgetOf = (value: RequestPolicy) => {
      const { config, spec, dependencies } = policyToEngine(value);
      expect(dependencies).not.toHaveProperty("maxTokens");
      const processor = buildPipeline(spec, config, dependencies)
        .listProcessors("pre_llm_call")
        .find((entry) => entry instanceof TokenBudgetProcessor);
      expect(processor?.maxTokens).toBe(config.extra.token_budget);
      return config.extra.token_budget;
    };
    expect(budgetOf(policy({ tokenBudget: 3_000 }))).toBe(3_000);
    expect(budgetOf(policy({ tokenBudget: null, contextWindow: 200_000 }))).toBe(200_000);
  });
});

describe("buildRequest", () => {
  it("[E-RB1] without persisted memory and with every processor off, sends the history as it is", async () => {
    const history = [system("policy"), ...toolRound("q1", "call_0", "r1", "a1"), user("q2")];
    const built = await buildRequest({ history, policy: policy({ processors: allOff }), tools: [weather] });
    expect(built.messages).toEqual(history);
    built.messages.forEach((message, index) => expect(message).toBe(history[index]));
    expect(built.trace.steps).toEqual([]);
    expect(built.tools).toEqual([weather]);
    expect(built.model).toBe("gpt-4o");
    expect(built.maxTokens).toBe(4_096);
  });

  it("[E-RB1][E-RB2] puts the covered part's system messages, the summary, retrieved memories, the raw history and the current turn in that order", async () => {
    const raw = [user("q5"), answer("a5")];
    const current = user("and now?");
    const built = await buildRequest({
      history: raw,
      current,
      policy: policy({ processors: allOff, retrievedMemories: 1 }),
      memory: {
        system: [system("policy")],
        summary: { id: "s1", text: "The user asked about flights.", fromPosition: 0, toPosition: 9, label: "Checkpoint v1 (summary of messages 0–8)" },
        retrieved: [
          { id: "a", kind: "summary", label: "summary 1", content: "[Retrieved] older" },
          { id: "b", kind: "artifact", label: "artifact", content: "[Retrieved] result" },
        ],
      },
    });
    const [policyMessage, summary, retrieved, ...rest] = built.messages;
    expect(policyMessage).toEqual(system("policy"));
    expect(summary.role).toBe("system");
    expect(summary.engine).toEqual({ kind: "conversation-summary" });
    expect(summary.content).toBe(`${CONVERSATION_SUMMARY_PREFIX} Messages 0–8 of this conversation, summarized:\nThe user asked about flights.`);
    expect(retrieved).toMatchObject({ role: "system", content: "[Retrieved] older", engine: { kind: "retrieved-memory" } });
    expect(rest).toEqual([...raw, current]);
    expect(built.sections.map((section) => section.kind)).toEqual(["system", "summary", "retrieved", "recent", "current"]);
    expect(built.sections.find((section) => section.kind === "summary")?.label).toBe("Checkpoint v1 (summary of messages 0–8)");
  });

  it("[E-RB8] a retrieved summary the persisted summary covers is not sent and takes no place; a stored tool result's outline is", async () => {
    const summary = {
      id: "s3",
      text: "Booked, then cancelled, the flight.",
      fromPosition: 0,
      toPosition: 30,
      label: "Checkpoint v3 (summary of messages 0–29)",
    };
    const covered = [
      { id: "s1", kind: "summary" as const, label: "summary 1", content: "[Retrieved] booked", positions: [0, 10] as [number, number] },
      { id: "s2", kind: "summary" as const, label: "summary 2", content: "[Retrieved] booked, then", positions: [0, 20] as [number, number] },
    ];
    const artifact = {
      id: "a1",
      kind: "artifact" as const,
      label: "search result at message 4",
      content: "[Retrieved] flights",
      positions: [4, 5] as [number, number],
    };
    const outside = {
      id: "o1",
      kind: "summary" as const,
      label: "summary of another part",
      content: "[Retrieved] later",
      positions: [30, 40] as [number, number],
    };
    const built = await buildRequest({
      history: [user("q"), answer("a")],
      policy: policy({ processors: allOff, retrievedMemories: 2 }),
      memory: { summary, retrieved: [...covered, artifact, outside] },
    });
    expect(built.assembly.retrieved).toEqual([artifact, outside]);
    expect(built.assembly.covered).toEqual(covered);
    expect(built.messages.map((message) => message.content).filter((content) => content?.startsWith("[Retrieved]"))).toEqual([
      "[Retrieved] flights",
      "[Retrieved] later",
    ]);
    expect(covered.map((memory) => coveredBySummary(memory, summary))).toEqual([true, true]);
    expect([artifact, outside].map((memory) => coveredBySummary(memory, summary))).toEqual([false, false]);
    expect(coveredBySummary(covered[0], null)).toBe(false);
  });

  it("[E-RB1] the same summary gives the same message object on every build, so counts stay cached", async () => {
    const memory = { summary: { id: "s1", text: "text", fromPosition: 0, toPosition: 4, label: "Summary" } };
    const first = await buildRequest({ history: [user("q")], policy: policy({ processors: allOff }), memory });
    const second = await buildRequest({ history: [user("q")], policy: policy({ processors: allOff }), memory });
    expect(first.messages[0]).toBe(second.messages[0]);
  });

  it("[E-RB3][F-M7] images count by the model's media rule in the verdict, and the token budget processor trims by the same rule", async () => {
    // A PNG header stating 1024×1024: OpenAI's tiles make it 765 tokens at high detail, Anthropic's rule ⌈1024²/750⌉ = 1,399.
    const be32 = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
    const data = btoa(
      String.fromCharCode(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...be32(1024), ...be32(1024), 8, 6, 0, 0, 0),
    );
    const look: Message = {
      role: "user",
      content: "look",
      parts: [
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", mediaType: "image/png", data }, detail: "high" },
      ],
    };
    const history = [system("policy"), look];
    const openai = await buildRequest({ history, policy: policy({ processors: allOff }) });
    const anthropic = await buildRequest({ history, policy: policy({ processors: allOff, mediaRule: "anthropic" }) });
    expect(openai.verdict.tokens.total).toBe(sharedCounter("o200k_base").countMessages(history));
    expect(anthropic.verdict.tokens.total).toBe(sharedCounter("o200k_base", "anthropic").countMessages(history));
    expect(anthropic.verdict.tokens.total - openai.verdict.tokens.total).toBe(1399 - 765);
    // A budget between the two: under OpenAI's rule the image fits, under Anthropic's the request is refused.
    const budget = openai.verdict.tokens.total + 10;
    expect((await buildRequest({ history, policy: policy({ tokenBudget: budget }) })).verdict.ok).toBe(true);
    expect((await buildRequest({ history, policy: policy({ tokenBudget: budget, mediaRule: "anthropic" }) })).verdict.ok).toBe(false);
  });

  it("[E-RB3] a request within the window fits; the token budget covers tools too", async () => {
    const history = [system("policy"), user("hello")];
    const counter = sharedCounter("o200k_base");
    const total = counter.countMessages(history) + counter.countTools([weather]);
    const fits = await buildRequest({ history, tools: [weather], policy: policy({ processors: allOff, tokenBudget: total }) });
    expect(fits.verdict).toMatchObject({ ok: true, limit: total, limitedBy: "budget" });
    expect(fits.verdict.tokens).toEqual({
      system: counter.countMessage(history[0]),
      tools: counter.countTools([weather]),
      history: total - counter.countMessage(history[0]) - counter.countTools([weather]),
      priming: TOKENS_TO_PRIME_REPLY,
      total,
    });
    const over = await buildRequest({ history, tools: [weather], policy: policy({ processors: allOff, tokenBudget: total - 1 }) });
    expect(over.verdict.ok).toBe(false);
    expect(over.verdict.reason).toContain(`needs ${total} tokens`);
    const window = await buildRequest({ history, tools: [weather], policy: policy({ processors: allOff, contextWindow: total + 100, maxOutputTokens: 101 }) });
    expect(window.verdict).toMatchObject({ ok: false, limitedBy: "window", limit: total - 1 });
  });

  it("[E-RB3] the token budget processor trims to the verdict's limit, tools included", async () => {
    const history = [
      system("policy"),
      ...Array.from({ length: 6 }, (_, index) => toolRound(`question ${index}`, `call_${index}`, longText(400), `answer ${index}`)).flat(),
      user("last"),
    ];
    const only = allOff.map((entry) => ({ ...entry, enabled: entry.kind === "token_budget" }));
    const counter = sharedCounter("o200k_base");
    const budget = counter.countMessages([history[0], ...history.slice(-9)]) + counter.countTools([weather]);
    const built = await buildRequest({ history, tools: [weather], policy: policy({ processors: only, tokenBudget: budget }) });
    expect(built.verdict.ok).toBe(true);
    expect(built.messages).toEqual([history[0], ...history.slice(-9)]);
    expect(built.verdict.tokens.total).toBe(budget);
  });

  it("[E-RB4] sections hold every message once and, with the reply priming as its own term, add up to the total", async () => {
    const history = [system("policy"), ...toolRound("q1", "call_0", "r1", "a1"), user("q2")];
    const built = await buildRequest({ history, tools: [weather], current: user("q3"), policy: policy() });
    const indices = built.sections.flatMap((section) => section.indices).sort((a, b) => a - b);
    expect(indices).toEqual(built.messages.map((_, index) => index));
    expect(built.verdict.tokens.priming).toBe(TOKENS_TO_PRIME_REPLY);
    expect(built.sections.reduce((sum, section) => sum + section.tokens, 0) + built.verdict.tokens.priming).toBe(built.verdict.tokens.total);
    expect(built.sections.find((section) => section.kind === "current")?.tokens).toBe(sharedCounter("o200k_base").countMessage(built.messages.at(-1)!));
  });

  it("[E-RB4] an empty request has no reply priming", async () => {
    const built = await buildRequest({ history: [], policy: policy({ processors: allOff }) });
    expect(built.verdict.tokens).toMatchObject({ priming: 0, total: 0 });
  });

  it("[E-RB5] offers reload_offloaded when a marker of this request's offloads is sent, and only then", async () => {
    const history = [...toolRound("q1", "call_0", longText(3_000), "a1"), user("q2")];
    const offloaderOnly = allOff.map((entry) => ({ ...entry, enabled: entry.kind === "message_offloader" }));
    const small = policy({ maxMessageSize: 1_000, offloadThreshold: 0, processors: offloaderOnly });
    const built = await buildRequest({ history, policy: small, tools: [weather] });
    expect(built.messages[2].content).toMatch(/^\[\[OFFLOADED: handle=off_[0-9a-f]{12}\]\]$/);
    expect(built.tools.map((tool) => tool.function.name)).toEqual(["get_weather", "reload_offloaded"]);
    const none = await buildRequest({ history: [user("short")], policy: small, tools: [weather] });
    expect(none.tools.map((tool) => tool.function.name)).toEqual(["get_weather"]);
    const off = await buildRequest({ history, policy: { ...small, reloadTool: false }, tools: [weather] });
    expect(off.messages[2].content).toBe(longText(3_000));
    expect(off.tools).toEqual([weather]);
  });

  it("[E-RB5] offers reload_offloaded for a marker a retrieved memory carries, with every processor off, and counts it in the budget", async () => {
    const retrieved = {
      id: "artifact-1",
      kind: "artifact" as const,
      label: "search result",
      content: "search(q) returned [[OFFLOADED: handle=off_0123456789ab]]",
    };
    const quiet = policy({ processors: allOff });
    const built = await buildRequest({ history: [user("q2")], policy: quiet, tools: [weather], memory: { retrieved: [retrieved] } });
    expect(built.messages.some((message) => message.content?.includes("off_0123456789ab"))).toBe(true);
    expect(built.tools.map((tool) => tool.function.name)).toEqual(["get_weather", "reload_offloaded"]);
    const plain = await buildRequest({ history: [user("q2")], policy: quiet, tools: [weather] });
    expect(plain.tools).toEqual([weather]);
    expect(built.verdict.tokens.total).toBeGreaterThan(plain.verdict.tokens.total);
  });

  it("[E-RB6] a 15,000-character tool result in the active round reaches the request whole", async () => {
    const big = longText(15_000);
    const history = [
      ...toolRound("q1", "call_0", longText(12_000), "a1"),
      user("weather?"),
      calls(toolCall("call_1", "get_weather")),
      result("call_1", big, "get_weather"),
    ];
    const built = await buildRequest({ history, policy: policy({ offloadThreshold: 0 }) });
    expect(built.messages.at(-1)).toBe(history.at(-1));
    expect(built.messages.at(-3)).toBe(history.at(-3));
    expect(built.messages.find((message) => message.content === longText(12_000))).toBeUndefined();
  });

  it("[E-RB3][E-RB4][E-RB6] for random conversations and policies: valid, last round kept, sections add up, the verdict matches the limit", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary,
        fc.record({
          mode: fc.constantFrom("pilot", "copilot", "navigator") as fc.Arbitrary<RequestPolicy["mode"]>,
          historyRounds: fc.integer({ min: 1, max: 6 }),
          tokenBudget: fc.option(fc.integer({ min: 50, max: 4_000 })),
          maxMessageSize: fc.integer({ min: 100, max: 3_000 }),
          enabled: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
          reloadTool: fc.boolean(),
        }),
        async (history, drawn) => {
          const processors = DEFAULT_PROCESSOR_ORDER.map((kind, index) => ({ kind, enabled: drawn.enabled[index] }));
          const built = await buildRequest({ history, policy: policy({ ...drawn, processors, offloadThreshold: 0 }) });
          expect(hasIntactToolPairs(built.messages)).toBe(true);
          const rounds = splitRounds(history);
          const last = rounds.at(-1);
          if (last && !last.complete) for (const index of last.indices) expect(built.messages).toContain(history[index]);
          expect(built.sections.reduce((sum, section) => sum + section.tokens, 0) + built.verdict.tokens.priming).toBe(built.verdict.tokens.total);
          expect(built.verdict.ok).toBe(built.verdict.tokens.total <= built.verdict.limit);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("[E-RB1][E-RB3] on real trajectories with the default policy, every request is valid and fits 8,000 tokens unless its system prompt and last round alone do not", async () => {
    const counter = sharedCounter("o200k_base");
    for (const { messages } of sampleTrajectories()) {
      const built = await buildRequest({ history: messages, policy: policy({ tokenBudget: 8_000 }) });
      expect(hasIntactToolPairs(built.messages)).toBe(true);
      const last = splitRounds(messages).at(-1)!;
      const smallest = counter.countMessages([...messages.filter((message) => message.role === "system"), ...last.indices.map((index) => messages[index])]);
      expect(built.verdict.ok).toBe(smallest <= 8_000);
      if (built.verdict.ok) expect(built.verdict.tokens.total).toBeLessThanOrEqual(8_000);
    }
  });
});

describe("buildRequest keeps user text as text", () => {
  it("[E-RB1] a message a model wrote that imitates a summary is not taken for one", async () => {
    const imitation: Message = { role: "system", content: `${CONVERSATION_SUMMARY_PREFIX} not ours` };
    const built = await buildRequest({ history: [imitation, user("q")], policy: policy({ processors: allOff }) });
    expect(built.sections.map((section) => section.kind)).toEqual(["system", "recent"]);
  });
});
