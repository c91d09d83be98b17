import { describe, expect, it } from "vitest";
import { splitRounds, TiktokenCounter, type Message } from "@/lib/context";
import {
  appendMessages,
  createConversation,
  getCheckpointsByBranchId,
  getHistoryByBranchId,
  getSummaryChainByBranchId,
  type Database,
} from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { AIRLINE_TOOLS, memoryConversation, tauBench, topicalBranch, TOPICS, turnsOf, user } from "@/tests/support/memory-fixtures";
import { assemblePrompt, type AssembledPrompt } from "./assemble";
import { recordMessages } from "./record";

const SYSTEM = "You are an airline customer-support agent. Follow the airline's baggage and cancellation policies.";

/** The invariants every assembled prompt keeps: sections add up, and match a fresh count of what is sent. */
function expectConsistent(prompt: AssembledPrompt, encoding: "o200k_base" | "cl100k_base" = "o200k_base") {
  const counter = new TiktokenCounter({ encoding });
  const sent = prompt.sections.flatMap((section) => section.messages);
  if (prompt.status !== "budget_exceeded") expect(prompt.messages).toEqual(sent);
  const total = counter.countMessages(sent) + counter.countTools(prompt.tools);
  expect(prompt.sections.reduce((sum, section) => sum + section.tokens, 0)).toBe(total);
  expect(prompt.tokens.total).toBe(total);
  const system = sent.filter((message) => prompt.sections.find((section) => section.kind === "system")?.messages.includes(message));
  expect(prompt.tokens.system).toBe(system.reduce((sum, message) => sum + counter.countMessage(message), 0));
  expect(prompt.tokens.tools).toBe(counter.countTools(prompt.tools));
  expect(prompt.tokens.history).toBe(total - prompt.tokens.system - prompt.tokens.tools);
  expect(prompt.budget.projected).toBe(prompt.tokens.history);
  expect(prompt.budget.system).toBe(prompt.tokens.system);
  expect(prompt.budget.tools).toBe(prompt.tokens.tools);
  // Static sections come first, then the fixed order of seed 002.
  const order = ["system", "tools", "checkpoint", "retrieved", "recent", "current"];
  const kinds = prompt.sections.map((section) => order.indexOf(section.kind));
  expect(kinds).toEqual([...kinds].sort((left, right) => left - right));
}

/** Everything a refused or read-only assembly must leave as it was. */
async function memoryFootprint(db: Database, branchId: string) {
  return { summaries: await getSummaryChainByBranchId(db, branchId), checkpoints: await getCheckpointsByBranchId(db, branchId), history: await getHistoryByBranchId(db, branchId) };
}

describe.each(TEST_PROVIDERS)("assemblePrompt (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[seed 002 stage 1] sends system and tools first, then the checkpoint, retrieved summaries, the 2 recent rounds and the current turn", async () => {
    const { branchId, baggage, cancellation } = await topicalBranch(test.db, { system: SYSTEM, tools: AIRLINE_TOOLS });
    const [, checkpoint] = await getCheckpointsByBranchId(test.db, branchId);
    const prompt = await assemblePrompt(test.db, branchId, { userTurn: "What was the fee for my extra checked bags again?" });

    expect(prompt.status).toBe("ok");
    expect(prompt.compaction).toBeNull();
    expect(prompt.tools).toEqual(AIRLINE_TOOLS);
    expect(prompt.sections.map((section) => [section.kind, section.label])).toEqual([
      ["system", "System prompt"],
      ["tools", "Tools: 2 definitions"],
      ["checkpoint", "Checkpoint v2 (summary of messages 0–12)"],
      ["retrieved", expect.stringMatching(/^Retrieved: summary 1 \(score \d+\.\d\d\)$/)],
      ["recent", "Recent: 2 rounds (messages 13–16)"],
      ["current", "Current turn"],
    ]);
    const [system, tools, checkpointSection, retrieved, recent, current] = prompt.sections;
    expect(system.messages).toEqual([{ role: "system", content: SYSTEM }]);
    expect(tools.messages).toEqual([]);
    expect(checkpointSection.source).toEqual({ summaryId: cancellation.id, checkpointId: checkpoint.id, positions: [0, 13] });
    expect(checkpointSection.messages).toEqual([{ role: "system", content: `[Conversation Summary] Messages 0–12 of this conversation, summarized:\n${cancellation.text}` }]);
    // The summary already sent as the checkpoint is never retrieved again.
    expect(retrieved.source).toMatchObject({ summaryId: baggage.id, positions: [0, 7] });
    expect(retrieved.messages[0].content).toBe(`[Retrieved summary of messages 0–6]\n${baggage.text}`);
    expect(recent.messages).toEqual(TOPICS.smallTalk.flat());
    expect(splitRounds(recent.messages)).toHaveLength(2);
    expect(current.messages).toEqual([user("What was the fee for my extra checked bags again?")]);
    expectConsistent(prompt);
  });

  it("[seed 002 stage 1] right after a compaction holds at most 2 raw rounds and at most 3 retrieved memories", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "navigator", artifactThreshold: 500 }, AIRLINE_TOOLS);
    for (const turn of turnsOf(tauBench(0))) await recordMessages(test.db, branch.id, turn);
    const chain = await getSummaryChainByBranchId(test.db, branch.id);
    expect(chain.length).toBeGreaterThan(3);
    const prompt = await assemblePrompt(test.db, branch.id, { userTurn: "Which reservation and flights did we talk about, and what did they cost?" });
    const kinds = prompt.sections.map((section) => section.kind);
    expect(kinds.filter((kind) => kind === "retrieved")).toHaveLength(3);
    expect(kinds.filter((kind) => kind === "checkpoint")).toHaveLength(1);
    const recent = prompt.sections.find((section) => section.kind === "recent")!;
    expect(splitRounds(recent.messages).length).toBeLessThanOrEqual(2);
    expect(recent.source?.positions?.[0]).toBe(chain.at(-1)!.toPosition);
    const retrievedIds = prompt.sections.flatMap((section) => (section.kind === "retrieved" ? [section.source?.summaryId ?? section.source?.artifactId] : []));
    expect(retrievedIds).not.toContain(chain.at(-1)!.id);
    expectConsistent(prompt);
  });

  it("searches with the last user message when no turn is given, and counts with the conversation's encoding", async () => {
    const { branchId, baggage } = await topicalBranch(test.db, { settings: { model: "gpt-4" } });
    const question = user("Sorry, how much was the fee for extra checked bags?");
    await recordMessages(test.db, branchId, [question]);
    const prompt = await assemblePrompt(test.db, branchId);
    expect(prompt.sections.map((section) => section.kind)).toEqual(["checkpoint", "retrieved", "recent"]);
    expect(prompt.sections[1].source?.summaryId).toBe(baggage.id);
    expect(prompt.messages.at(-1)).toEqual(question);
    expectConsistent(prompt, "cl100k_base");
  });

  it("[seed 003] limits the history to the tighter of the token budget and the window left by system, tools and output", async () => {
    const { branchId } = await topicalBranch(test.db, { system: SYSTEM, tools: AIRLINE_TOOLS });
    const wide = await assemblePrompt(test.db, branchId, { settings: { contextWindow: 128_000, maxOutputTokens: 4_096, tokenBudget: 2_000 } });
    expect(wide.budget).toMatchObject({ contextWindow: 128_000, reserve: 4_096, limit: 2_000 });
    expect(wide.budget.history).toBe(128_000 - wide.tokens.system - wide.tokens.tools - 4_096);
    const narrow = await assemblePrompt(test.db, branchId, { settings: { contextWindow: 1_500, maxOutputTokens: 1_000, tokenBudget: 2_000 } });
    expect(narrow.budget.history).toBe(1_500 - narrow.tokens.system - narrow.tokens.tools - 1_000);
    expect(narrow.budget.limit).toBe(narrow.budget.history);
  });

  it("[seed 002 stage 3] stops with budget_exceeded and the exact numbers, the same twice, writing nothing", async () => {
    const { branchId } = await topicalBranch(test.db, { system: SYSTEM });
    const before = await memoryFootprint(test.db, branchId);
    const options = { userTurn: "And the baggage fee?", settings: { tokenBudget: 40 } };
    const first = await assemblePrompt(test.db, branchId, options);
    const second = await assemblePrompt(test.db, branchId, options);
    expect(second).toEqual(first);
    expect(await memoryFootprint(test.db, branchId)).toEqual(before);

    // The smallest request stage 3 can make: the system prompt, the checkpoint, the last raw round and the turn.
    const counter = new TiktokenCounter({ encoding: "o200k_base" });
    const checkpoint = first.sections.find((section) => section.kind === "checkpoint")!.messages;
    const smallest: Message[] = [{ role: "system", content: SYSTEM }, ...checkpoint, ...TOPICS.smallTalk[1], user("And the baggage fee?")];
    const tokens = counter.countMessages(smallest) - counter.countMessage(smallest[0]);
    expect(first).toMatchObject({
      status: "budget_exceeded",
      messages: [],
      compaction: null,
      shrunk: ["drop-retrieved", "keep-1-round"],
      exceeded: { budget: 40, tokens, reason: expect.stringContaining(`needs ${tokens} tokens`) },
      budget: { limit: 40, projected: tokens },
    });
    expect(first.exceeded?.reason).toContain("no model call should be made");
    expect(first.sections.flatMap((section) => section.messages)).toEqual(smallest);
    expectConsistent(first);
  });

  it("[seed 002 stage 3] compacts before the call when that brings the request under the budget", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "pilot" });
    for (const turn of turnsOf(tauBench(27))) await recordMessages(test.db, branch.id, turn);
    const userTurn = "Please confirm the changes.";
    const full = await assemblePrompt(test.db, branch.id, { userTurn, compact: false });
    expect(full.status).toBe("ok");
    expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([]);

    // A model's summary is shorter than the extractive one the preview folds raw rounds into.
    const summarizer = async () => "The user changed their flights; the agent confirmed each change.";
    const tokenBudget = full.budget.projected - 1;
    const rescued = await assemblePrompt(test.db, branch.id, { userTurn, settings: { tokenBudget }, summarizer });
    expect(rescued.status).toBe("compacted");
    expect(rescued.compaction?.checkpoint.metadata).toMatchObject({ reason: "budget" });
    expect(rescued.budget.projected).toBeLessThanOrEqual(tokenBudget);
    expect(rescued.shrunk).toBeUndefined();
    expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([rescued.compaction?.summary]);
    expectConsistent(rescued);

    // The compaction is stored: the next assembly sends the same request without compacting again.
    const again = await assemblePrompt(test.db, branch.id, { userTurn, settings: { tokenBudget }, summarizer });
    expect(again).toMatchObject({ status: "ok", compaction: null, messages: rescued.messages });
  });

  it("[seed 002 stage 3] persists no compaction that cannot bring the request under the budget", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "pilot" });
    for (const turn of turnsOf(tauBench(27))) await recordMessages(test.db, branch.id, turn);
    const before = await memoryFootprint(test.db, branch.id);
    const prompt = await assemblePrompt(test.db, branch.id, { userTurn: "hi", settings: { tokenBudget: 20 } });
    expect(prompt.status).toBe("budget_exceeded");
    expect(prompt.exceeded?.reason).toMatch(/compacting first would still need \d+/);
    expect(await memoryFootprint(test.db, branch.id)).toEqual(before);
  });

  it("[seed 002 stage 1] compacts a due branch first, unless told not to", async () => {
    // An import writes through lib/db directly, so nothing compacted it when it crossed the threshold.
    const messages = tauBench(12);
    const counter = new TiktokenCounter({ encoding: "o200k_base" });
    const { branch } = await createConversation(test.db, {
      title: "import",
      source: "import:tau-bench",
      settings: { summaryThreshold: 6 },
      messages: messages.map((message) => ({ message, tokens: counter.countMessage(message) })),
    });
    const before = await memoryFootprint(test.db, branch.id);
    const preview = await assemblePrompt(test.db, branch.id, { compact: false });
    expect(preview.status).toBe("ok");
    // At most 2 raw rounds are sent raw; the older ones are summarised into the checkpoint section, not dropped.
    expect(preview.sections.map((section) => section.kind)).toEqual(["system", "checkpoint", "recent"]);
    const [, gap, recent] = preview.sections;
    expect(splitRounds(recent.messages)).toHaveLength(2);
    expect(recent.messages).toEqual(messages.slice(messages.length - recent.messages.length));
    expect(gap.label).toMatch(/^Messages 1–\d+ summarized now \(no checkpoint yet\)$/);
    expect(gap.source?.positions).toEqual([1, messages.length - recent.messages.length]);
    expect(await memoryFootprint(test.db, branch.id)).toEqual(before);

    const prompt = await assemblePrompt(test.db, branch.id);
    expect(prompt.status).toBe("compacted");
    expect(prompt.compaction?.checkpoint.metadata).toMatchObject({ reason: "threshold" });
    expect(prompt.sections.map((section) => section.kind)).toEqual(["system", "checkpoint", "recent"]);
    expect(splitRounds(prompt.sections[2].messages)).toHaveLength(2);
    await appendMessages(test.db, branch.id, []);
    expect(await assemblePrompt(test.db, branch.id)).toEqual({ ...prompt, status: "ok", compaction: null });
  });
});
