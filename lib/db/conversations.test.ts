import { describe, expect, it } from "vitest";
import type { Message, ToolDefinition } from "@/lib/context/messages";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { driverStatementsDuring } from "@/tests/support/driver-statements";
import { dialogue, seedConversation, user } from "@/tests/support/db-fixtures";
import { createArtifact, getArtifactsByBranchId } from "./artifacts";
import { forkBranch, getBranchById } from "./branches";
import { createCheckpoint } from "./checkpoints";
import {
  createConversation,
  deleteConversationById,
  findConversationByRecordKey,
  getConversationById,
  getConversations,
  updateConversationById,
} from "./conversations";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import { createExchange } from "./exchanges";
import { appendMessages, getHistoryByBranchId } from "./messages";
import { putOffloadedContent } from "./offloaded";
import { createSummary } from "./summaries";

const weather: ToolDefinition = {
  type: "function",
  function: { name: "get_weather", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};

describe.each(TEST_PROVIDERS)("conversations (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("creates a conversation with its root branch and initial messages in one go", async () => {
    const result = await createConversation(test.db, {
      title: "Weather agent",
      source: "import:openai",
      settings: { mode: "copilot", budget: 8000, applyPipeline: true },
      tools: [weather],
      recordKey: "agent-7",
      messages: dialogue(3),
    });
    expect(result.conversation).toMatchObject({
      title: "Weather agent",
      source: "import:openai",
      settings: { mode: "copilot", budget: 8000, applyPipeline: true },
      tools: [weather],
      recordKey: "agent-7",
    });
    expect(result.branch).toMatchObject({ conversationId: result.conversation.id, name: "main", parentId: null, forkPosition: null, length: 3 });
    expect(result.messages.map((record) => record.position)).toEqual([0, 1, 2]);
    expect(await getConversationById(test.db, result.conversation.id)).toEqual(result.conversation);
    expect(await findConversationByRecordKey(test.db, "agent-7")).toEqual(result.conversation);
    expect(await findConversationByRecordKey(test.db, "nobody")).toBeNull();
  });

  it("[DB-G6] [DB-G7] writes its rows on the driver, without Prisma's queries, and returns them as Prisma reads them back", async () => {
    // The same shape first: the driver prepares each statement text once per connection.
    await createConversation(test.db, { title: "agent-8", source: "proxy", recordKey: "agent-8", tools: [weather], messages: dialogue(2) });
    let created: Awaited<ReturnType<typeof createConversation>> | undefined;
    const { prepared, sent } = await driverStatementsDuring(async () => {
      created = await createConversation(test.db, { title: "agent-9", source: "proxy", recordKey: "agent-9", tools: [weather], messages: dialogue(2) });
    });
    if (provider === "sqlite") expect(prepared).toEqual([]);
    else {
      const inserts = sent.filter((statement) => statement.text.startsWith("INSERT"));
      expect(inserts.filter((statement) => !statement.direct)).toEqual([]);
      expect(new Set(inserts.map((statement) => statement.text.split(" ")[2]))).toEqual(
        new Set(['"Conversation"', '"LibraryEntry"', '"SearchTerm"', '"Branch"', '"Message"']),
      );
    }
    const { conversation, branch } = created!;
    expect(await getConversationById(test.db, conversation.id)).toEqual(conversation);
    expect(await getBranchById(test.db, branch.id)).toEqual(branch);
    expect(branch).toMatchObject({ name: "main", length: 2, parentId: null });
    expect(await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } })).toMatchObject({ revision: 1, checkpointCount: 0, forkRevision: null });
    expect(await test.db.libraryEntry.findUniqueOrThrow({ where: { conversationId: conversation.id } })).toMatchObject({ messageCount: 2, indexed: true });
  });

  it("writes nothing when one initial message is invalid", async () => {
    const bad = { message: { role: "narrator", content: "x" } as unknown as Message, tokens: 1 };
    const creation = createConversation(test.db, { title: "broken", source: "proxy", messages: [user("fine"), bad] });
    await expect(creation).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(await getConversations(test.db)).toEqual([]);
  });

  it("writes nothing when the database refuses a row halfway through", async () => {
    await createConversation(test.db, { title: "first", source: "proxy", recordKey: "taken" });
    // The conversation row collides on recordKey: its branch and messages must not be left behind.
    const creation = createConversation(test.db, { title: "second", source: "proxy", recordKey: "taken", messages: dialogue(3) });
    await expect(creation).rejects.toSatisfy(ConflictError.isInstance);
    const list = await getConversations(test.db);
    expect(list.map((conversation) => [conversation.title, conversation.messageCount, conversation.branchCount])).toEqual([["first", 0, 1]]);
  });

  it("lists conversations most recently changed first with message and branch counts", async () => {
    const older = await seedConversation(test.db, 2, "older");
    const newer = await seedConversation(test.db, 3, "newer");
    const fork = await forkBranch(test.db, older.branch.id, { position: 1 });
    await appendMessages(test.db, fork.id, [user("fork turn")]);
    const list = await getConversations(test.db);
    expect(list.map((conversation) => [conversation.title, conversation.messageCount, conversation.branchCount])).toEqual([
      ["older", 3, 2],
      ["newer", 3, 1],
    ]);
    expect(list[1].id).toBe(newer.conversation.id);
    expect(await getConversations(test.db, { limit: 1, offset: 1 })).toHaveLength(1);
  });

  it("updates title, settings and tools, leaving absent fields alone", async () => {
    const { conversation } = await createConversation(test.db, { title: "a", source: "proxy", settings: { mode: "pilot" }, tools: [weather] });
    const renamed = await updateConversationById(test.db, conversation.id, { title: "b" });
    expect(renamed).toMatchObject({ title: "b", settings: { mode: "pilot" }, tools: [weather] });
    const changed = await updateConversationById(test.db, conversation.id, { settings: { mode: "navigator", model: "gpt-4o" }, tools: null });
    expect(changed).toMatchObject({ title: "b", settings: { mode: "navigator", model: "gpt-4o" }, tools: null });
    await expect(updateConversationById(test.db, "missing", { title: "x" })).rejects.toSatisfy(
      (error: unknown) => NotFoundError.isInstance(error) && error.resource === "conversation" && error.id === "missing",
    );
    await expect(updateConversationById(test.db, conversation.id, { settings: [] as unknown as Record<string, unknown> })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
  });

  it("refuses a second conversation with the same record key", async () => {
    await createConversation(test.db, { title: "a", source: "proxy", recordKey: "k" });
    await expect(createConversation(test.db, { title: "b", source: "proxy", recordKey: "k" })).rejects.toThrow(/already exists with the same recordKey/);
  });

  it("deletes a conversation with everything it holds, leaving others intact", async () => {
    const doomed = await seedConversation(test.db, 4, "doomed");
    const kept = await seedConversation(test.db, 2, "kept");
    const fork = await forkBranch(test.db, doomed.branch.id, { position: 2 });
    await appendMessages(test.db, fork.id, [user("fork")]);
    const summary = await createSummary(test.db, doomed.branch.id, { fromPosition: 0, toPosition: 2, text: "s", tokens: 1 });
    await createCheckpoint(test.db, doomed.branch.id, { values: {}, tokenUsage: {}, messageCount: 2, summaryId: summary.id });
    await createSummary(test.db, fork.id, { fromPosition: 2, toPosition: 3, text: "fork summary", tokens: 1 });
    await putOffloadedContent(test.db, fork.id, { handle: "off_000000000001", kind: "message", content: "big" });
    await createArtifact(test.db, doomed.branch.id, { content: "report", summary: "r", tokens: 1 });
    await createExchange(test.db, fork.id, { request: { messages: [] } });
    await createArtifact(test.db, kept.branch.id, { content: "kept report", summary: "k", tokens: 1 });

    await deleteConversationById(test.db, doomed.conversation.id);

    await expect(getConversationById(test.db, doomed.conversation.id)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getBranchById(test.db, fork.id)).rejects.toSatisfy(NotFoundError.isInstance);
    const counts = await Promise.all([
      test.db.branch.count(),
      test.db.message.count(),
      test.db.summary.count(),
      test.db.checkpoint.count(),
      test.db.offloadedContent.count(),
      test.db.artifact.count(),
      test.db.exchange.count(),
    ]);
    expect(counts).toEqual([1, 2, 0, 0, 0, 1, 0]);
    expect(await getHistoryByBranchId(test.db, kept.branch.id)).toHaveLength(2);
    expect(await getArtifactsByBranchId(test.db, kept.branch.id)).toHaveLength(1);
    await expect(deleteConversationById(test.db, doomed.conversation.id)).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("imports a long conversation in one transaction", async () => {
    const { branch } = await createConversation(test.db, { title: "long", source: "import:tau-bench", messages: dialogue(5000) });
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history).toHaveLength(5000);
    expect(history.at(-1)).toMatchObject({ position: 4999, message: { content: "a4999" } });
  });
});
