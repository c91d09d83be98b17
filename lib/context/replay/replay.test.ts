// Replays of real agent conversations: tau-bench's GPT-4o airline trajectories
// (sierra-research/tau-bench, MIT licence; see test-support/tau-bench.ts).
import { describe, expect, it, vi } from "vitest";
import { ContextError, ReplayCancelledError } from "../errors";
import type { Message, ToolDefinition } from "../messages";
import type { RequestPolicy } from "../request/policy";
import { answer, calls, result, system, toolCall, user } from "../test-support/conversation";
import { hasIntactToolPairs } from "../sanitize";
import { allTrajectories, hasAllTrajectories, sampleTrajectories } from "../test-support/tau-bench";
import { sharedCounter, TOKENS_PER_MESSAGE, TOKENS_TO_PRIME_REPLY } from "../tokens/counter";
import { getTextEncoder } from "../tokens/encodings";
import { getContextTools } from "../tools";
import { comparePolicies } from "./compare";
import { costOfTokens } from "./cost";
import { mentionsOf } from "./mentions";
import { presetPolicy, PRESET_IDS, PRESETS, rawPolicy } from "./presets";
import { policySnippet } from "./snippet";
import { callPoints, replayConversation, sumTotals } from "./replay";

const counter = sharedCounter("o200k_base");
const RELOAD_TOOL = getContextTools().find((tool) => tool.definition.function.name === "reload_offloaded")!.definition;
const sample = sampleTrajectories();
/** The sample trajectory with the most rounds (then tool results): the one most strategies have something to do in. */
const turnsOf = (messages: readonly Message[], role: Message["role"]) => messages.filter((message) => message.role === role).length;
const richest = [...sample].sort(
  (a, b) => turnsOf(b.messages, "user") - turnsOf(a.messages, "user") || turnsOf(b.messages, "tool") - turnsOf(a.messages, "tool"),
)[0].messages;

const tools: ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "get_reservation_details",
      description: "Get the details of a reservation.",
      parameters: { type: "object", properties: { reservation_id: { type: "string" } }, required: ["reservation_id"] },
    },
  },
  {
    type: "function",
    function: {
      name: "get_user_details",
      description: "Get the details of a user.",
      parameters: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] },
    },
  },
];

const masking = (keep: number): RequestPolicy => ({ ...presetPolicy("observation_masking"), tuning: { observation_masking: { keepObservations: keep } } });
const prices = { input: 2.5, cachedInput: 1.25, output: 10 };

/** A deep copy: message objects no cache has seen. */
function fresh(messages: readonly Message[]): Message[] {
  return JSON.parse(JSON.stringify(messages)) as Message[];
}

describe("replayConversation", () => {
  it("[E-RP1][E-RP2] under raw, every request is exactly the conversation's prefix before the call", async () => {
    for (const { messages } of sample) {
      const replay = await replayConversation({ messages, tools, policy: PRESETS.raw.policy });
      expect(replay.calls.map((call) => call.at)).toEqual(callPoints(messages));
      for (const call of replay.calls) {
        expect(call.messages).toHaveLength(call.at);
        call.messages.forEach((message, index) => expect(message).toBe(messages[index]));
        expect(call.steps).toEqual([]);
        expect(call.touched).toEqual([]);
      }
    }
  });

  it("[E-RP3] each call's tokens are its request counted directly, split into sections that add up", async () => {
    for (const policy of [
      PRESETS.raw.policy,
      masking(2),
      PRESETS.navigator.policy,
      { ...presetPolicy("auto_compact"), contextWindow: 4_000, maxOutputTokens: 500 },
    ]) {
      for (const { messages } of sample) {
        const replay = await replayConversation({ messages, tools, policy });
        for (const call of replay.calls) {
          const sent = call.toolNames.map((name) => [...tools, RELOAD_TOOL].find((tool) => tool.function.name === name)!);
          expect(call.tokens.total).toBe(counter.countMessages(call.messages) + counter.countTools(sent));
          expect(call.tokens.system + call.tokens.tools + call.tokens.history + call.tokens.newTurns).toBe(call.tokens.total);
          const newTurns = messages.slice(call.call === 0 ? 0 : replay.calls[call.call - 1].at + 1, call.at).filter((message) => message.role !== "system");
          expect(call.tokens.newTurns).toBe(newTurns.reduce((sum, message) => sum + counter.countMessage(message), 0));
        }
      }
    }
  });

  it("[E-RP2][E-CS6] carries the policy's edits forward: a masked result stays masked, the active round never is", async () => {
    const replay = await replayConversation({ messages: richest, tools, policy: masking(1) });
    for (const call of replay.calls) {
      const lastUser = richest.slice(0, call.at).findLastIndex((message) => message.role === "user");
      const active = richest.slice(lastUser, call.at);
      expect(call.messages.slice(call.messages.length - active.length)).toEqual(active);
      const shown = call.messages.filter((message) => message.role === "tool" && message.content !== "[earlier tool result omitted]");
      const activeResults = active.filter((message) => message.role === "tool").length;
      expect(shown.length).toBeLessThanOrEqual(Math.max(1, activeResults));
    }
  });

  it("[E-RP2][E-RB5] offloads carry forward: every request that sends a marker offers reload_offloaded", async () => {
    const offloading: RequestPolicy = { ...PRESETS.copilot.policy, maxMessageSize: 300, offloadThreshold: 0 };
    const replay = await replayConversation({ messages: richest, tools, policy: offloading });
    const withMarkers = replay.calls.filter((call) =>
      call.messages.some((message) => /^\[\[OFFLOADED: handle=off_[0-9a-f]{12}\]\]$/.test(message.content ?? "")),
    );
    expect(withMarkers.length).toBeGreaterThan(2);
    // Later calls carry markers made earlier: without the store they would go without the tool.
    for (const call of withMarkers) expect(call.toolNames).toContain("reload_offloaded");
    expect(replay.calls.filter((call) => call.touched.some((touch) => touch.kind === "offloaded")).length).toBeLessThan(withMarkers.length);
  });

  it("[E-RP5] raw keeps the cache warm: each call reads the whole previous request; masking breaks it and says who", async () => {
    const raw = await replayConversation({ messages: richest, tools, policy: PRESETS.raw.policy });
    for (const call of raw.calls.slice(1)) {
      const previous = raw.calls[call.call - 1];
      expect(call.cache).toEqual({
        cachedTokens: counter.countTools(tools) + previous.messages.reduce((sum, message) => sum + counter.countMessage(message), 0),
        sharedMessages: previous.messageCount,
        broken: false,
      });
    }
    expect(raw.totals.cacheBreaks).toBe(0);
    const masked = await replayConversation({ messages: richest, tools, policy: masking(1) });
    const broken = masked.calls.filter((call) => call.cache.broken);
    expect(broken.length).toBeGreaterThan(0);
    for (const call of broken) {
      expect(call.cache.brokenBy).toEqual(["observation_masking"]);
      const previous = masked.calls[call.call - 1].messages;
      expect(call.messages[call.cache.brokenAt!]).not.toEqual(previous[call.cache.brokenAt!]);
      expect(call.messages.slice(0, call.cache.brokenAt)).toEqual(previous.slice(0, call.cache.brokenAt));
    }
    expect(masked.totals.cacheHitShare).toBeLessThan(raw.totals.cacheHitShare);
  });

  it("[E-RP6][E-RP7] costs each call from the prices: input, cached input, and the recorded turn as output", async () => {
    const replay = await replayConversation({ messages: richest, tools, policy: PRESETS.copilot.policy, prices });
    let total = 0;
    for (const call of replay.calls) {
      const reply = richest[call.at];
      expect(call.outputTokens).toBe(counter.countMessage(reply) - TOKENS_PER_MESSAGE - counter.countText("assistant"));
      expect(call.cost).toEqual(costOfTokens({ input: call.tokens.total, cachedInput: call.cache.cachedTokens, output: call.outputTokens }, prices));
      total += call.cost!.total;
    }
    expect(replay.totals.cost!.total).toBeCloseTo(total, 12);
    expect(replay.totals.inputTokens).toBe(replay.calls.reduce((sum, call) => sum + call.tokens.total, 0));
    const unpriced = await replayConversation({ messages: richest, tools, policy: PRESETS.copilot.policy });
    expect(unpriced.calls.every((call) => call.cost === null)).toBe(true);
    expect(unpriced.totals.cost).toBeNull();
  });

  it("[E-RP7] totals over several conversations add up to their calls, each call's input counted from its request", async () => {
    const replays = await Promise.all(
      sample.slice(0, 3).map(({ messages }) => replayConversation({ messages, tools, policy: PRESETS.observation_masking.policy, prices })),
    );
    const calls = replays.flatMap((replay) => replay.calls);
    const summed = sumTotals(replays.map((replay) => replay.totals));
    // Each call's input is its request counted directly: messages, tools sent, the reply priming.
    for (const call of calls) {
      const sent = call.toolNames.map((name) => [...tools, RELOAD_TOOL].find((tool) => tool.function.name === name)!);
      expect(call.tokens.total).toBe(counter.countMessages(call.messages) + counter.countTools(sent));
    }
    expect(summed.calls).toBe(calls.length);
    expect(summed.inputTokens).toBe(calls.reduce((sum, call) => sum + call.tokens.total, 0));
    expect(summed.cachedTokens).toBe(calls.reduce((sum, call) => sum + call.cache.cachedTokens, 0));
    expect(summed.cacheBreaks).toBe(calls.filter((call) => call.cache.broken).length);
    expect(summed.riskyCalls).toBe(calls.filter((call) => call.recallRisks.length > 0).length);
    expect(summed.cacheHitShare).toBeCloseTo(summed.cachedTokens / summed.inputTokens, 12);
    expect(summed.cost!.total).toBeCloseTo(
      calls.reduce((sum, call) => sum + call.cost!.total, 0),
      9,
    );
    expect(sumTotals([replays[0].totals, { ...replays[1].totals, cost: null }]).cost).toBeNull();
  });

  it("[E-RP7][E-RB3] counts budget stops: calls whose request does not fit", async () => {
    const tight = { ...PRESETS.raw.policy, contextWindow: 3_000, maxOutputTokens: 500 };
    const replay = await replayConversation({ messages: richest, tools, policy: tight });
    const stops = replay.calls.filter((call) => !call.verdict.ok);
    expect(stops.length).toBeGreaterThan(0);
    expect(replay.totals.budgetStops).toBe(stops.length);
    expect(stops.every((call) => call.stopped && call.tokens.total > 2_500)).toBe(true);
    // E-RP5: a request that is not sent leaves the cache as the last sent one left it.
    const afterStop = replay.calls.find((call) => call.call > 0 && replay.calls[call.call - 1].stopped)!;
    const lastSent = replay.calls.slice(0, afterStop.call).findLast((call) => !call.stopped)!;
    expect(afterStop.cache).toEqual({
      cachedTokens: counter.countTools(tools) + counter.countMessages(lastSent.messages) - TOKENS_TO_PRIME_REPLY,
      sharedMessages: lastSent.messageCount,
      broken: false,
    });
  });

  it("[E-RP4] records what each processor touched, in conversation indices", async () => {
    const replay = await replayConversation({ messages: richest, tools, policy: masking(1) });
    // Carried forward: each call masks only what became old since the previous one.
    const everMasked = replay.calls.flatMap((call) =>
      call.touched.flatMap((entry) => entry.conversation.flatMap(([start, end]) => Array.from({ length: end - start }, (_, offset) => start + offset))),
    );
    expect(new Set(everMasked).size).toBe(everMasked.length);
    for (const index of everMasked) expect(richest[index].role).toBe("tool");
    expect(replay.calls.flatMap((call) => call.touched.map((entry) => `${entry.processor} ${entry.kind}`))).toContain("observation_masking masked");
    expect(replay.calls.some((call) => call.steps[0]?.effects.masked)).toBe(true);
  });

  it("[E-RP2] cancels at the next call once the signal aborts, and before the first when already aborted", async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const run = replayConversation({
      messages: richest,
      tools,
      policy: PRESETS.navigator.policy,
      signal: controller.signal,
      onProgress: ({ done }) => {
        seen.push(done);
        if (done === 3) controller.abort(new Error("user closed the panel"));
      },
    });
    const error = await run.catch((caught: unknown) => caught);
    expect(ReplayCancelledError.isInstance(error)).toBe(true);
    expect((error as ReplayCancelledError).done).toBe(3);
    expect((error as ReplayCancelledError).cause).toEqual(new Error("user closed the panel"));
    expect(seen).toEqual([0, 1, 2, 3]);
    const aborted = AbortSignal.abort();
    await expect(replayConversation({ messages: richest, policy: PRESETS.raw.policy, signal: aborted })).rejects.toBeInstanceOf(ContextError);
  });

  /**
   * Queues a task for the event loop's next turn, whatever the clock says (a 0 ms timer waits for a millisecond to
   * pass, which a fast replay may not take); the function tells whether it has run.
   */
  const queueTask = () => {
    let fired = false;
    setImmediate(() => {
      fired = true;
    });
    return () => fired;
  };

  it("[E-RP2] yields to the event loop every few calls: a task queued before the replay runs before it ends", async () => {
    const fired = queueTask();
    let firedMidway = false;
    await replayConversation({
      messages: richest,
      policy: PRESETS.raw.policy,
      yieldEvery: 2,
      onProgress: ({ done, total }) => {
        if (done === total - 1) firedMidway = fired();
      },
    });
    expect(firedMidway).toBe(true);
  });

  it("[E-RP2] yields once its calls have run 10 ms, however many calls yieldEvery allows", async () => {
    const fired = queueTask();
    let firedAfterSecond = false;
    await replayConversation({
      messages: richest,
      policy: PRESETS.raw.policy,
      yieldEvery: 10_000,
      onProgress: ({ done }) => {
        // A slow call: the progress callback runs inside the call's slice.
        const until = performance.now() + 11;
        while (done === 1 && performance.now() < until);
        if (done === 2) firedAfterSecond = fired();
      },
    });
    expect(firedAfterSecond).toBe(true);
  });

  /** The texts counting a message encodes (E-T1): role, content, name, call id, each call's name and arguments. */
  const texts = (message: Message) =>
    [
      message.role,
      message.content,
      message.name,
      message.tool_call_id,
      ...(message.tool_calls ?? []).flatMap((call) => [call.function.name, call.function.arguments]),
    ].filter((text): text is string => typeof text === "string" && text.length > 0);

  it("[E-RP3][E-T6] counts each conversation message once across replays and policies, and each copy a processor writes once, not per call or per replay", async () => {
    const messages = fresh(richest);
    const encoder = getTextEncoder("o200k_base");
    const spy = vi.spyOn(encoder, "count");
    try {
      const toolsCopy = JSON.parse(JSON.stringify(tools)) as ToolDefinition[];
      await replayConversation({ messages, tools: toolsCopy, policy: PRESETS.raw.policy });
      const toolTexts = 2 * 2; // per tool: "name:description" and one property
      const roleOfOutput = 1;
      // The role text of the reply's output is counted once per encoding and role for the process: at most once here.
      expect(spy.mock.calls.length).toBeLessThanOrEqual(messages.reduce((sum, message) => sum + texts(message).length, 0) + toolTexts + roleOfOutput);
      expect(spy.mock.calls.length).toBeGreaterThanOrEqual(
        messages.slice(0, callPoints(messages).at(-1)! + 1).reduce((sum, message) => sum + texts(message).length, 0),
      );
      spy.mockClear();
      await replayConversation({ messages, tools: toolsCopy, policy: PRESETS.raw.policy });
      expect(spy.mock.calls.length).toBe(0);
      spy.mockClear();
      // Under masking only the placeholder copies are new: each is encoded once, however many calls carry it.
      const replayed = await replayConversation({ messages, tools: toolsCopy, policy: masking(1) });
      const masked = new Set(
        replayed.calls.flatMap((call) =>
          call.touched.flatMap((touch) => touch.conversation.flatMap(([start, end]) => Array.from({ length: end - start }, (_, offset) => start + offset))),
        ),
      );
      expect(masked.size).toBeGreaterThan(3);
      const copies = [...masked].map((index) => ({ ...messages[index], content: "[earlier tool result omitted]" }));
      expect(spy.mock.calls.length).toBe(copies.reduce((sum, message) => sum + texts(message).length, 0));
      // Again: neither the conversation's messages nor the copies are encoded again (a copy a processor writes keeps its count, T6).
      spy.mockClear();
      await replayConversation({ messages, tools: toolsCopy, policy: PRESETS.raw.policy });
      expect(spy.mock.calls.length).toBe(0);
      await replayConversation({ messages, tools: toolsCopy, policy: masking(1) });
      expect(spy.mock.calls.length).toBe(0);
    } finally {
      spy.mockRestore();
    }
  });
});

describe(`every model call of the ${hasAllTrajectories ? 200 : "sample"} tau-bench trajectories, replayed`, () => {
  const strategies: RequestPolicy = {
    ...presetPolicy("pilot", { model: "gpt-4o", encoding: "o200k_base", contextWindow: 6_000, maxOutputTokens: 1_000 }),
    processors: ["clear_tool_uses", "observation_masking", "auto_compact", "token_window", "token_budget"].map((kind) => ({
      kind: kind as RequestPolicy["processors"][number]["kind"],
      enabled: true,
    })),
    tuning: {
      clear_tool_uses: { triggerTokens: 2_000, keepToolUses: 2, clearToolInputs: true },
      observation_masking: { keepObservations: 3 },
      auto_compact: { fraction: 0.7, keepRounds: 2 },
      token_window: { maxTokens: 4_500 },
    },
  };

  it("[E-RP1][E-RP3][E-P1][E-CS6] raw sends the prefixes; under every strategy at once each request's tokens are its own count, pairs stay whole and the active round is sent as it is", async () => {
    for (const { taskId, messages } of allTrajectories()) {
      const raw = await replayConversation({ messages, tools, policy: PRESETS.raw.policy, recallRisk: false });
      for (const call of raw.calls)
        expect(
          call.messages.length === call.at && call.messages.every((message, index) => message === messages[index]),
          `task ${taskId} call ${call.call}`,
        ).toBe(true);
      const replay = await replayConversation({ messages, tools, policy: strategies });
      for (const call of replay.calls) {
        const sent = call.toolNames.map((name) => [...tools, RELOAD_TOOL].find((tool) => tool.function.name === name)!);
        expect(call.tokens.total, `task ${taskId} call ${call.call}`).toBe(counter.countMessages(call.messages) + counter.countTools(sent));
        expect(hasIntactToolPairs(call.messages), `task ${taskId} call ${call.call}: pairs`).toBe(true);
        const lastUser = messages.slice(0, call.at).findLastIndex((message) => message.role === "user");
        const active = messages.slice(lastUser, call.at);
        const tail = call.messages.slice(call.messages.length - active.length);
        expect(
          tail.every((message, index) => message === active[index]),
          `task ${taskId} call ${call.call}: active round`,
        ).toBe(true);
      }
    }
  }, 120_000);
});

/** An order id that only a tool result holds, asked about ten turns later. */
function plantedConversation(): Message[] {
  const filler = Array.from({ length: 10 }, (_, index) => [
    user(`Can you check seat availability for flight ${index}?`),
    calls(toolCall(`c${index}`, "search_flights", JSON.stringify({ flight: index }))),
    result(`c${index}`, `Flight ${index} has 3 seats left.`, "search_flights"),
    answer(`Flight ${index} has 3 seats.`),
  ]).flat();
  return [
    system("You are a shopping assistant."),
    user("What did I order last week?"),
    calls(toolCall("c_order", "list_orders", "{}")),
    result("c_order", JSON.stringify({ orders: [{ order_id: "ORD-58213Q", item: "kettle" }] }), "list_orders"),
    answer("You ordered a kettle last week."),
    ...filler,
    user("Please cancel order ORD-58213Q."),
    answer("I have cancelled order ORD-58213Q."),
  ];
}

describe("recall risk", () => {
  it("[E-RP8] flags a mention that only a masked tool result held, ten turns later; not under raw", async () => {
    const messages = plantedConversation();
    const asked = messages.length - 2;
    const masked = await replayConversation({ messages, policy: masking(3) });
    const flagged = masked.calls.filter((call) => call.recallRisks.length > 0);
    expect(flagged.map((call) => call.at)).toEqual([messages.length - 1]);
    expect(flagged[0].recallRisks).toEqual([
      { mention: "ORD-58213Q", kind: "id", turnIndex: asked, sourceIndex: 3, lostBy: "masked", processor: "observation_masking" },
    ]);
    expect(masked.totals.riskyCalls).toBe(1);
    const raw = await replayConversation({ messages, policy: PRESETS.raw.policy });
    expect(raw.calls.every((call) => call.recallRisks.length === 0)).toBe(true);
  });

  it("[E-RP8] a mention the request still carries elsewhere (an answer that repeated it) is no risk", async () => {
    const messages = plantedConversation();
    messages[4] = answer("You ordered a kettle last week (order ORD-58213Q).");
    const masked = await replayConversation({ messages, policy: masking(3) });
    expect(masked.calls.every((call) => call.recallRisks.length === 0)).toBe(true);
  });

  it("[E-RP8] finds ids, file names, long numbers, quoted strings and URLs", () => {
    const mentions = mentionsOf(
      user('Open src/app/page.tsx and "the blue kettle", order #W2378156, reservation ZFA04Y, invoice 48213, see https://example.com/a?b=1.'),
    );
    expect(mentions.map((mention) => [mention.kind, mention.text])).toEqual([
      ["url", "https://example.com/a?b=1"],
      ["file", "src/app/page.tsx"],
      ["id", "#W2378156"],
      ["id", "ZFA04Y"],
      ["number", "48213"],
      ["quoted", "the blue kettle"],
    ]);
    expect(mentionsOf(calls(toolCall("c", "get_reservation_details", '{"reservation_id": "ZFA04Y"}'))).map((mention) => mention.text)).toEqual(["ZFA04Y"]);
  });
});

describe("comparePolicies", () => {
  it("[E-RP9] replays raw first and the policies after, with cumulative sums and savings against raw", async () => {
    const progress: string[] = [];
    const compared = await comparePolicies({
      messages: richest,
      tools,
      prices,
      policies: [
        { id: "mask", label: "Masking", policy: masking(2) },
        { id: "navigator", label: "Navigator", policy: PRESETS.navigator.policy },
      ],
      onProgress: ({ policy, done, total, finished, runs }) => {
        if (done === total) progress.push(`${policy} ${finished + 1}/${runs}`);
      },
    });
    expect(compared.runs.map((run) => run.id)).toEqual(["raw", "mask", "navigator"]);
    expect(progress).toEqual(["raw 1/3", "mask 2/3", "navigator 3/3"]);
    expect(compared.callPoints).toEqual(callPoints(richest));
    expect(compared.runs[0].replay.policy).toEqual(rawPolicy(masking(2)));
    for (const run of compared.runs) {
      expect(run.cumulative).toHaveLength(compared.callPoints.length);
      expect(run.cumulative.at(-1)!.inputTokens).toBe(run.replay.totals.inputTokens);
      expect(run.cumulative.at(-1)!.cost).toBeCloseTo(run.replay.totals.cost!.total, 12);
      expect(run.savedTokens).toBe(compared.runs[0].replay.totals.inputTokens - run.replay.totals.inputTokens);
    }
    expect(compared.runs[1].savedTokens).toBeGreaterThan(0);
  });

  it("[E-RP9] refuses more than 3 policies, none, and repeated ids", async () => {
    const entry = (id: string) => ({ id, label: id, policy: masking(1) });
    await expect(comparePolicies({ messages: richest, policies: ["a", "b", "c", "d"].map(entry) })).rejects.toThrow(/at most 3 policies/);
    await expect(comparePolicies({ messages: richest, policies: [] })).rejects.toThrow(ContextError);
    await expect(comparePolicies({ messages: richest, policies: [entry("a"), entry("a")] })).rejects.toThrow(/policy 1: id 'a' is taken/);
    await expect(comparePolicies({ messages: richest, policies: [entry("raw")] })).rejects.toThrow(/'raw' is the baseline's/);
  });
});

describe("PRESETS", () => {
  it("[E-RP10] every preset replays a real conversation; raw runs no processor; presetPolicy rebases onto a model", async () => {
    expect(PRESET_IDS).toEqual(["raw", "observation_masking", "clear_tool_uses", "auto_compact", "budget_only", "pilot", "copilot", "navigator"]);
    expect(PRESETS.raw.policy.processors.every((entry) => !entry.enabled)).toBe(true);
    for (const id of PRESET_IDS) {
      const policy = presetPolicy(id, { model: "gpt-4.1", encoding: "cl100k_base", contextWindow: 8_000, maxOutputTokens: 1_000 });
      expect(policy).toMatchObject({ model: "gpt-4.1", encoding: "cl100k_base", contextWindow: 8_000, maxOutputTokens: 1_000 });
      const replay = await replayConversation({ messages: richest, tools, policy });
      expect(replay.calls).toHaveLength(callPoints(richest).length);
    }
  });
});

describe("policySnippet", () => {
  it("[E-RP11] imports the packed engine and holds the policy as a TypeScript literal that reads back as the policy", () => {
    const policy: RequestPolicy = {
      ...presetPolicy("clear_tool_uses"),
      tuning: { clear_tool_uses: { excludeTools: ["get user", "lookup"], placeholder: '[cleared "result"]' } },
    };
    const snippet = policySnippet(policy);
    expect(snippet).toContain('from "@context-lab/engine";');
    expect(policySnippet(policy, { packageName: "my-engine" })).toContain('from "my-engine";');
    const literal = /export const policy: RequestPolicy = ([\s\S]*?);\n\n/.exec(snippet)![1];
    expect(new Function(`return (${literal});`)()).toEqual(policy);
    expect(snippet).toContain("export function prepareRequest(history: readonly Message[], tools: readonly ToolDefinition[] = []): Promise<BuiltRequest>");
  });
});
