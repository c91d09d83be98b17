import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/tests/support/db";
import { driverStatementsDuring } from "@/tests/support/driver-statements";
import { getBranchById } from "./branches";
import { createConversation, getConversationById } from "./conversations";
import { NotFoundError } from "./errors";
import { appendMessages, getHistoryByBranchId } from "./messages";
import { BACKEND_PROCESS, TrackingPool } from "./postgres-connection";
import { heldConnectionOf, lockBranch, runTransaction } from "./run";

/** The pool hands out connections without noting a transaction's (as one taken outside its scope): restore the spy after. */
const connectionsTakenUnseen = () =>
  vi.spyOn(TrackingPool.prototype, "connect").mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    return (pg.Pool.prototype.connect as (...values: unknown[]) => unknown).apply(this, args);
  } as TrackingPool["connect"]);

/** Every statement sent on a pool connection while `work` runs, and whether it was sent without Prisma. */
const statementsDuring = async (work: () => Promise<void>) => (await driverStatementsDuring(work)).sent;

describe("statements on the connection a PostgreSQL transaction holds", () => {
  const test = useTestDatabase("postgres");
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("[DB-G7] an append's lock, rows, library counters and conversation stamp go on the transaction's connection without Prisma", async () => {
    const { conversation, branch } = await createConversation(test.db, { title: "direct", source: "api" });
    await appendMessages(test.db, branch.id, [{ message: { role: "user", content: "first" }, tokens: 1 }]);
    const sent = await statementsDuring(async () => {
      const appended = await appendMessages(test.db, branch.id, [{ message: { role: "assistant", content: "second" }, tokens: 2 }], { expectedLength: 1 });
      expect(appended.map((record) => record.position)).toEqual([1]);
    });
    const direct = sent.filter((statement) => statement.direct).map((statement) => statement.text.split(" ").slice(0, 3).join(" "));
    expect(direct).toEqual(expect.arrayContaining(['UPDATE "Branch" SET', 'INSERT INTO "Message"', 'UPDATE "LibraryEntry" SET', 'UPDATE "Conversation" SET']));
    const byPrisma = sent.filter((statement) => !statement.direct && /^(UPDATE|INSERT)/.test(statement.text));
    expect(byPrisma.filter((statement) => /"(Branch|Message|LibraryEntry|Conversation)"/.test(statement.text))).toEqual([]);
    // The pool saw the transaction take its connection: the server is not asked which one it is.
    expect(sent.filter((statement) => statement.text === BACKEND_PROCESS)).toEqual([]);
    const stored = await getHistoryByBranchId(test.db, branch.id);
    expect(stored.map((record) => record.message.content)).toEqual(["first", "second"]);
    expect((await getBranchById(test.db, branch.id)).length).toBe(2);
    expect(await test.db.libraryEntry.findUniqueOrThrow({ where: { conversationId: conversation.id } })).toMatchObject({ messageCount: 2, tokens: 3 });
    expect((await getConversationById(test.db, conversation.id)).updatedAt >= conversation.updatedAt).toBe(true);
  });

  it("[DB-G7] the records an append returns and the lock's branch row are what Prisma reads back, in any local time zone", async () => {
    process.env.TZ = "America/Los_Angeles";
    const { branch } = await createConversation(test.db, { title: "same", source: "api" });
    const appended = await appendMessages(test.db, branch.id, [
      { message: { role: "user", content: "question" }, tokens: 3 },
      { message: { role: "assistant", content: "answer" }, tokens: 2 },
    ]);
    expect(appended).toEqual(await getHistoryByBranchId(test.db, branch.id));
    const locked = await runTransaction(test.db, (tx) => lockBranch(tx, branch.id));
    expect(locked).toEqual(await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } }));
    const written = Date.now();
    await appendMessages(test.db, branch.id, [{ message: { role: "user", content: "later" }, tokens: 1 }]);
    // The stamp written without Prisma is read back by Prisma as the instant it was written: UTC, not local time.
    const stamp = await test.db.conversation.findUniqueOrThrow({ where: { id: branch.conversationId }, select: { updatedAt: true } });
    expect(Math.abs(stamp.updatedAt.getTime() - written)).toBeLessThan(60_000);
  });

  it("[DB-G7] a rolled-back transaction takes its statements on the held connection with it, and a missing branch is NotFoundError", async () => {
    const { branch } = await createConversation(test.db, { title: "rolled back", source: "api" });
    const { revision } = await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } });
    await expect(
      runTransaction(test.db, async (tx) => {
        await lockBranch(tx, branch.id, { length: 5, revision: true });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } })).toMatchObject({ length: 0, revision });
    await expect(runTransaction(test.db, (tx) => lockBranch(tx, "no-such-branch"))).rejects.toSatisfy((error) => NotFoundError.isInstance(error));
  });

  it("[DB-G7] each transaction's statements go on its own connection while other transactions take connections meanwhile", async () => {
    const { branch } = await createConversation(test.db, { title: "busy", source: "api" });
    const pairs = await Promise.all(
      Array.from({ length: 8 }, () =>
        runTransaction(test.db, async (tx) => {
          // Another write on the client, not the transaction, opens its own transaction on another connection meanwhile.
          const [, locked] = await Promise.all([
            test.db.conversation.updateMany({ where: { id: branch.conversationId }, data: { title: "busy" } }),
            lockBranch(tx, branch.id),
          ]);
          expect(locked.id).toBe(branch.id);
          const [own] = await tx.$queryRawUnsafe<{ pid: number }[]>(BACKEND_PROCESS);
          const { rows } = await heldConnectionOf(tx)!.run(BACKEND_PROCESS, []);
          return [Number(own.pid), Number(rows[0].pid)];
        }),
      ),
    );
    for (const [own, held] of pairs) expect(held).toBe(own);
  });

  it("[DB-G7] a transaction whose connection the pool did not see taken is found by its server process", async () => {
    const { branch } = await createConversation(test.db, { title: "named", source: "api" });
    const unseen = connectionsTakenUnseen();
    try {
      const sent = await statementsDuring(async () => {
        await appendMessages(test.db, branch.id, [{ message: { role: "user", content: "named" }, tokens: 1 }]);
      });
      expect(sent.filter((statement) => statement.text === BACKEND_PROCESS)).toHaveLength(1);
      expect(sent.filter((statement) => statement.direct && statement.text.startsWith('INSERT INTO "Message"')).length).toBe(1);
    } finally {
      unseen.mockRestore();
    }
    expect((await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content)).toEqual(["named"]);
  });

  it("[DB-G7] when the pool neither saw the transaction's connection taken nor can name it (a pooler in between), the statements go through Prisma", async () => {
    const { branch } = await createConversation(test.db, { title: "pooled", source: "api" });
    const unknown = vi.spyOn(TrackingPool.prototype, "connectionOf").mockReturnValue(null);
    const unseen = connectionsTakenUnseen();
    try {
      const sent = await statementsDuring(async () => {
        await appendMessages(test.db, branch.id, [{ message: { role: "user", content: "through Prisma" }, tokens: 1 }]);
      });
      expect(sent.filter((statement) => statement.direct && !statement.text.startsWith("SELECT pg_backend_pid"))).toEqual([]);
    } finally {
      unknown.mockRestore();
      unseen.mockRestore();
    }
    expect((await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content)).toEqual(["through Prisma"]);
    expect(await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } })).toMatchObject({ length: 1 });
  });
});
