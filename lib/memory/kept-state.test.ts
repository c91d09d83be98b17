import { describe, expect, it } from "vitest";
import {
  appendMessages,
  ConflictError,
  getConversationById,
  getCheckpointsByBranchId,
  getHistoryByBranchId,
  getSummariesByBranchId,
  getSummaryChainByBranchId,
  updateConversationById,
  type Database,
} from "@/lib/db";
import { readingClient } from "@/tests/support/counting-client";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { assistant, memoryConversation, tauBench, toolCall, toolResult, TOPICS, user } from "@/tests/support/memory-fixtures";
import { compactBranch } from "./compaction";
import { keepCreated } from "./kept-state";
import { appendGroupsOf } from "@/lib/db/append-group";
import { recordMessages } from "./record";

describe.each(TEST_PROVIDERS)("a writer's kept branch state (%s)", (provider) => {
  const test = useTestDatabase(provider);

  /** A conversation in pilot mode (nothing is due) with one recorded turn, written by a client that keeps the branch's state. */
  async function keptWriter() {
    const reading = readingClient(test.db);
    const { conversation, branch } = await memoryConversation(test.db, { mode: "pilot" });
    await recordMessages(reading.db, branch.id, [user("first question"), assistant("first answer")], { conversation });
    return { db: reading.db, conversation, branch, reads: reading.reads };
  }

  const record = (db: Database, branchId: string, conversationId: string, messages: Parameters<typeof recordMessages>[2], expectedLength?: number) =>
    getConversationById(test.db, conversationId).then((conversation) => recordMessages(db, branchId, messages, { conversation, expectedLength }));

  it("[MEM-8] the next write starts from the state its writer kept: nothing of the branch is read again", async () => {
    const writer = await keptWriter();
    const before = writer.reads();
    const second = await record(writer.db, writer.branch.id, writer.conversation.id, [user("second question"), assistant("second answer")]);
    const third = await record(writer.db, writer.branch.id, writer.conversation.id, [user("third question")], 4);
    expect(writer.reads() - before).toBe(0);
    expect(second.messages.map((record) => record.position)).toEqual([2, 3]);
    expect(third.messages.map((record) => record.position)).toEqual([4]);
    const stored = await getHistoryByBranchId(test.db, writer.branch.id);
    expect(stored.map((record) => record.message.content)).toEqual(["first question", "first answer", "second question", "second answer", "third question"]);
    expect(stored.slice(2)).toEqual([...second.messages, ...third.messages]);
  });

  it("[MEM-8] a message written meanwhile by another writer makes the next write read the branch again and append after it", async () => {
    const writer = await keptWriter();
    await appendMessages(test.db, writer.branch.id, [{ message: user("from elsewhere"), tokens: 3 }]);
    const before = writer.reads();
    const next = await record(writer.db, writer.branch.id, writer.conversation.id, [assistant("answer after it")]);
    expect(writer.reads() - before).toBeGreaterThan(0);
    expect(next.messages.map((record) => record.position)).toEqual([3]);
    // A pinned length the branch no longer has is the caller's conflict, as without a kept state.
    await appendMessages(test.db, writer.branch.id, [{ message: user("again from elsewhere"), tokens: 3 }]);
    await expect(record(writer.db, writer.branch.id, writer.conversation.id, [assistant("stale")], 4)).rejects.toSatisfy((error) =>
      ConflictError.isInstance(error),
    );
    expect((await getHistoryByBranchId(test.db, writer.branch.id)).map((record) => record.message.content).at(-1)).toBe("again from elsewhere");
  });

  it("[MEM-8] a summary written meanwhile (no message) is seen too: the revision moved, so the branch is read again", async () => {
    const writer = await keptWriter();
    const trajectory = tauBench(2).filter((message) => message.role !== "system" && message.role !== "tool" && !message.tool_calls?.length);
    await record(writer.db, writer.branch.id, writer.conversation.id, trajectory.slice(0, 12));
    expect(await compactBranch(test.db, writer.branch.id, { force: true })).not.toBeNull();
    const before = writer.reads();
    await record(writer.db, writer.branch.id, writer.conversation.id, [user("after the summary")]);
    expect(writer.reads() - before).toBeGreaterThan(0);
    expect(await getSummariesByBranchId(test.db, writer.branch.id)).toHaveLength(1);
  });

  it("[MEM-8] a write that compacts keeps the state too, with what its checkpoint lists: later writes, compacting or not, read nothing; the branch ends as a writer that reads every time leaves it", async () => {
    const settings = { summaryThreshold: 6, artifactThreshold: 1_000 };
    // A lookup whose result becomes an artifact, then rounds of two messages: with 2 rounds kept raw, every other round crosses the threshold.
    const lookup = [
      user("Look up the booking, please."),
      toolCall("call_1", "lookup", { booking: "ABC123" }),
      toolResult("call_1", "Booking ABC123: two passengers, Boston to Denver. ".repeat(40)),
      assistant("I found the booking."),
    ];
    const turns = [lookup, ...Object.values(TOPICS).flat(), ...Object.values(TOPICS).flat()];
    const keeping = readingClient(test.db);
    const kept = await memoryConversation(test.db, settings);
    const reading = await memoryConversation(test.db, settings);
    let compactedBefore = false;
    const readsAfterCompaction: number[] = [];
    const readsCompacting: number[] = [];
    for (const [index, turn] of turns.entries()) {
      const before = keeping.reads();
      const result = await record(keeping.db, kept.branch.id, kept.conversation.id, turn);
      // The first write reads the branch, the first compaction what its checkpoint lists (offloaded handles, artifacts); later ones carry it.
      if (result.compaction !== null && index > 0) readsCompacting.push(keeping.reads() - before);
      else if (compactedBefore) readsAfterCompaction.push(keeping.reads() - before);
      compactedBefore = result.compaction !== null;
      await recordMessages(test.db, reading.branch.id, turn);
    }
    expect(readsAfterCompaction.length).toBeGreaterThan(0);
    expect(readsAfterCompaction).toEqual(readsAfterCompaction.map(() => 0));
    // The branch's first compaction also counts the history before its summary and reads its lists; later ones carry both.
    expect(readsCompacting.length).toBeGreaterThan(2);
    expect(readsCompacting[0]).toBeGreaterThan(0);
    expect(readsCompacting.slice(1)).toEqual(readsCompacting.slice(1).map(() => 0));
    const outline = async (branchId: string) => ({
      history: (await getHistoryByBranchId(test.db, branchId)).map((record) => [record.position, record.message.role, record.tokens]),
      chain: (await getSummaryChainByBranchId(test.db, branchId)).map((summary) => [summary.fromPosition, summary.toPosition, summary.text, summary.tokens]),
      // The artifact and its offloaded content differ in id between the two conversations: each checkpoint lists one of each.
      checkpoints: (await getCheckpointsByBranchId(test.db, branchId)).map((checkpoint) => [
        checkpoint.version,
        checkpoint.messageCount,
        checkpoint.tokenUsage,
        checkpoint.artifactRefs.length,
        (checkpoint.values.offloaded_messages as string[]).length,
      ]),
    });
    const [keptOutline, readOutline] = [await outline(kept.branch.id), await outline(reading.branch.id)];
    expect(keptOutline.chain.length).toBeGreaterThanOrEqual(2);
    expect(keptOutline.checkpoints.every(([, , , artifacts, handles]) => artifacts === 1 && handles === 1)).toBe(true);
    expect(keptOutline).toEqual(readOutline);
  });

  it("[MEM-8] a writer that just created a branch keeps its empty state: its writes, the first compaction included, read nothing, and leave what a reading writer leaves", async () => {
    const settings = { summaryThreshold: 6 };
    const turns = [...Object.values(TOPICS).flat(), ...Object.values(TOPICS).flat()];
    const keeping = readingClient(test.db);
    const created = await memoryConversation(test.db, settings);
    await keepCreated(keeping.db, created.conversation, created.branch);
    // Keeping it read the model catalogue once for the client (its settings); nothing of the branch.
    const before = keeping.reads();
    const reading = await memoryConversation(test.db, settings);
    let compactions = 0;
    for (const turn of turns) {
      const result = await recordMessages(keeping.db, created.branch.id, turn, { conversation: created.conversation });
      if (result.compaction) compactions += 1;
      await recordMessages(test.db, reading.branch.id, turn);
    }
    expect(compactions).toBeGreaterThan(2);
    expect(keeping.reads() - before).toBe(0);
    const outline = async (branchId: string) => ({
      history: (await getHistoryByBranchId(test.db, branchId)).map((record) => [record.position, record.message.role, record.tokens]),
      chain: (await getSummaryChainByBranchId(test.db, branchId)).map((summary) => [summary.fromPosition, summary.toPosition, summary.text]),
      checkpoints: (await getCheckpointsByBranchId(test.db, branchId)).map((checkpoint) => [checkpoint.messageCount, checkpoint.values]),
    });
    const [keptOutline, readOutline] = [await outline(created.branch.id), await outline(reading.branch.id)];
    // The checkpoints' values name their branch and summaries: the rest is the same.
    const withoutIds = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/"(branch_id|id|extendsId)":"[^"]*"/g, '"$1":""'));
    expect(withoutIds(keptOutline)).toEqual(withoutIds(readOutline));
  });

  it("[MEM-8] the settings are the conversation's as the writer read it now, not as they were kept", async () => {
    const writer = await keptWriter();
    await updateConversationById(test.db, writer.conversation.id, { settings: { mode: "pilot", artifactThreshold: 100 } });
    const call = {
      role: "assistant" as const,
      content: null,
      tool_calls: [{ id: "call_1", type: "function" as const, function: { name: "lookup", arguments: "{}" } }],
    };
    const result = { role: "tool" as const, tool_call_id: "call_1", content: "x".repeat(5_000) };
    const recorded = await record(writer.db, writer.branch.id, writer.conversation.id, [call, result]);
    expect(recorded.artifacts).toHaveLength(1);
  });
});

describe("kept-state writes of many agents at once (postgres)", () => {
  const test = useTestDatabase("postgres");

  it("[MEM-8] [DB-G10] share transactions, compacting on their own when due, and leave each branch as a writer that reads every time leaves it", async () => {
    const settings = { summaryThreshold: 6 };
    const turns = [...Object.values(TOPICS).flat(), ...Object.values(TOPICS).flat()];
    const agents = await Promise.all([0, 1, 2, 3].map(() => memoryConversation(test.db, settings)));
    for (const agent of agents) await keepCreated(test.db, agent.conversation, agent.branch);
    const reading = await memoryConversation(test.db, settings);
    const groups = appendGroupsOf(test.db)!;
    const before = groups.groups;
    let plain = 0;
    for (const turn of turns) {
      const results = await Promise.all(agents.map((agent) => recordMessages(test.db, agent.branch.id, turn, { conversation: agent.conversation })));
      plain += results.filter((result) => result.compaction === null).length;
      await recordMessages(test.db, reading.branch.id, turn);
    }
    // The appends without a compaction went four at a time: one transaction per turn for all agents.
    expect(plain).toBeGreaterThan(agents.length * 2);
    expect(groups.groups - before).toBe(plain / agents.length);
    const outline = async (branchId: string) => ({
      history: (await getHistoryByBranchId(test.db, branchId)).map((record) => [record.position, record.message.role, record.message.content, record.tokens]),
      chain: (await getSummaryChainByBranchId(test.db, branchId)).map((summary) => [summary.fromPosition, summary.toPosition, summary.text]),
    });
    const expected = await outline(reading.branch.id);
    expect(expected.chain.length).toBeGreaterThan(1);
    for (const agent of agents) expect(await outline(agent.branch.id)).toEqual(expected);
  });
});
