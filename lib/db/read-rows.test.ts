import { afterEach, describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { driverStatementsDuring } from "@/tests/support/driver-statements";
import { toBranchRecord, getBranchesByConversationId, forkBranch } from "./branches";
import type { Database } from "./client";
import { toConversationRecord } from "./conversation-record";
import { createConversation, findConversationByRecordKey } from "./conversations";
import { NotFoundError } from "./errors";
import { appendMessages } from "./messages";
import { runTransaction } from "./run";

/** A recorded conversation with a fork: two branches to list. */
async function recorded(db: Database, recordKey: string) {
  const { conversation, branch } = await createConversation(db, {
    title: "agent",
    source: "proxy",
    recordKey,
    tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }],
  });
  await appendMessages(db, branch.id, [
    { message: { role: "user", content: "question" }, tokens: 1 },
    { message: { role: "assistant", content: "answer" }, tokens: 1 },
  ]);
  const fork = await forkBranch(db, branch.id, { position: 1 });
  return { conversation, branch, fork };
}

describe.each(TEST_PROVIDERS)("reads on every recorded call's path, on the driver (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("[DB-G8] the conversation found by its record key and its branch list are what Prisma reads, in any local time zone", async () => {
    process.env.TZ = "America/Los_Angeles";
    const { conversation, branch, fork } = await recorded(test.db, "agent-1");
    const found = await findConversationByRecordKey(test.db, "agent-1");
    expect(found).toEqual(toConversationRecord(await test.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } })));
    expect(found?.tools).toEqual(conversation.tools);
    const branches = await getBranchesByConversationId(test.db, conversation.id);
    const byPrisma = await test.db.branch.findMany({ where: { conversationId: conversation.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(branches).toEqual(byPrisma.map(toBranchRecord));
    expect(branches.map((entry) => entry.id)).toEqual([branch.id, fork.id]);
    expect(await findConversationByRecordKey(test.db, "nobody")).toBeNull();
    await expect(getBranchesByConversationId(test.db, "no-such-conversation")).rejects.toSatisfy((error) => NotFoundError.isInstance(error));
  });

  it("[DB-G8] the reads skip Prisma: on SQLite each SQL text is prepared once, on PostgreSQL it is sent on the pool directly", async () => {
    const { conversation } = await recorded(test.db, "agent-2");
    await findConversationByRecordKey(test.db, "agent-2");
    await getBranchesByConversationId(test.db, conversation.id);
    const { prepared, sent } = await driverStatementsDuring(async () => {
      for (let round = 0; round < 3; round += 1) {
        expect((await findConversationByRecordKey(test.db, "agent-2"))?.id).toBe(conversation.id);
        expect(await getBranchesByConversationId(test.db, conversation.id)).toHaveLength(2);
      }
    });
    expect(prepared).toEqual([]);
    expect(sent.filter((statement) => !statement.direct)).toEqual([]);
    if (provider === "postgres")
      expect(sent.map((statement) => statement.text.split(" WHERE")[0])).toEqual(
        Array(3).fill(['SELECT * FROM "Conversation"', 'SELECT * FROM "Branch"']).flat(),
      );
  });

  it("[DB-G8] a client not made by createDatabase (an extended one) reads the same through Prisma's raw path", async () => {
    process.env.TZ = "Asia/Kolkata";
    const { conversation } = await recorded(test.db, "agent-4");
    const extended = test.db.$extends({}) as unknown as Database;
    expect(await findConversationByRecordKey(extended, "agent-4")).toEqual(await findConversationByRecordKey(test.db, "agent-4"));
    expect(await getBranchesByConversationId(extended, conversation.id)).toEqual(await getBranchesByConversationId(test.db, conversation.id));
  });
});

describe("reads of many recorded calls at once (postgres)", () => {
  const test = useTestDatabase("postgres");

  it("[DB-G11] the reads of one turn for the same table and column are one statement, each answered with its own rows as a read alone answers", async () => {
    const agents = await Promise.all(["agent-a", "agent-b", "agent-c"].map((key) => recorded(test.db, key)));
    const alone = {
      conversations: await Promise.all(["agent-a", "agent-b", "agent-c"].map(async (key) => findConversationByRecordKey(test.db, key))),
      branches: [] as Awaited<ReturnType<typeof getBranchesByConversationId>>[],
    };
    for (const { conversation } of agents) alone.branches.push(await getBranchesByConversationId(test.db, conversation.id));
    let together: { conversations: unknown[]; branches: unknown[]; missing: PromiseSettledResult<unknown>[] } | null = null;
    const { sent } = await driverStatementsDuring(async () => {
      const [conversations, branches, missing] = await Promise.all([
        Promise.all(["agent-a", "agent-b", "agent-c", "agent-a"].map((key) => findConversationByRecordKey(test.db, key))),
        Promise.all(agents.map(({ conversation }) => getBranchesByConversationId(test.db, conversation.id))),
        Promise.allSettled([findConversationByRecordKey(test.db, "nobody"), getBranchesByConversationId(test.db, "no-such-conversation")]),
      ]);
      together = { conversations, branches, missing };
    });
    expect(sent.map((statement) => statement.text.split(" WHERE")[0])).toEqual(['SELECT * FROM "Conversation"', 'SELECT * FROM "Branch"']);
    expect(together!.conversations).toEqual([...alone.conversations, alone.conversations[0]]);
    expect(together!.branches).toEqual(alone.branches);
    expect(alone.branches.map((branches) => branches.length)).toEqual([2, 2, 2]);
    const [nobody, noBranches] = together!.missing;
    expect(nobody).toEqual({ status: "fulfilled", value: null });
    expect(noBranches.status === "rejected" && NotFoundError.isInstance(noBranches.reason)).toBe(true);
  });
});

describe("reads on the driver beside an open SQLite transaction", () => {
  const test = useTestDatabase("sqlite");

  it("[DB-G8] on SQLite a read answers from the last commit while a transaction holds the writer", async () => {
    const { conversation } = await recorded(test.db, "agent-3");
    await runTransaction(test.db, async (tx) => {
      await tx.conversation.update({ where: { id: conversation.id }, data: { title: "renamed, not committed" } });
      // The writer is held until this transaction ends: a read that waited for it would never answer here.
      expect((await findConversationByRecordKey(test.db, "agent-3"))?.title).toBe("agent");
    });
    expect((await findConversationByRecordKey(test.db, "agent-3"))?.title).toBe("renamed, not committed");
  });
});
