import Sqlite from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/tests/support/db";
import { driverStatementsDuring } from "@/tests/support/driver-statements";
import { sqliteConnectionOf, sqlitePathOf } from "./client";
import { createConversation, getConversationById } from "./conversations";
import { ConflictError, NotFoundError } from "./errors";
import { getBranchById } from "./branches";
import { appendMessages, getHistoryByBranchId } from "./messages";
import { lockBranch, runTransaction } from "./run";

describe("the SQLite connection's group commit", () => {
  const test = useTestDatabase("sqlite");

  const connection = () => {
    const found = sqliteConnectionOf(test.db);
    if (!found) throw new Error("the client has not connected");
    return found;
  };

  it("[DB-G1] writes that arrive together share one commit", async () => {
    await test.db.conversation.count(); // connects
    const before = { ...connection().counts };
    const created = await Promise.all(Array.from({ length: 40 }, (_, index) => createConversation(test.db, { title: `agent ${index}`, source: "api" })));
    const after = connection().counts;
    expect(created).toHaveLength(40);
    expect(after.writes - before.writes).toBeGreaterThanOrEqual(40);
    // Forty transactions, a handful of syncs: each commit waits for the disk once for all of its group.
    expect(after.commits - before.commits).toBeLessThanOrEqual(4);
    expect(await test.db.conversation.count()).toBe(40);
  });

  it("[DB-G1] after a commit that made one write durable, the next write commits without waiting for the spacing", async () => {
    await test.db.conversation.count(); // connects
    const statement = { sql: 'UPDATE "Conversation" SET "title" = "title" WHERE 0', params: [] };
    // The clock stands still and timers never fire: a commit spaced after the last one would wait for ever.
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    try {
      await connection().runDirect([statement]);
      const second = connection()
        .runDirect([statement])
        .then(() => "committed");
      const turns = async () => {
        for (let turn = 0; turn < 100; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        return "still waiting";
      };
      expect(await Promise.race([second, turns()])).toBe("committed");
    } finally {
      vi.useRealTimers();
    }
  });

  it("[DB-G2] a write is acknowledged only once another connection can read it", async () => {
    await test.db.conversation.count();
    const reader = new Sqlite(sqlitePathOf(test.current.url), { readonly: true });
    try {
      const seen = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          createConversation(test.db, { title: `durable ${index}`, source: "api" }).then(
            ({ conversation }) => reader.prepare('SELECT COUNT(*) AS n FROM "Conversation" WHERE "id" = ?').get(conversation.id) as { n: number },
          ),
        ),
      );
      expect(seen.map((row) => row.n)).toEqual(Array(20).fill(1));
    } finally {
      reader.close();
    }
  });

  it("[DB-G2] a transaction that rolls back undoes only itself, in a group with others", async () => {
    await test.db.conversation.count();
    const before = connection().counts.commits;
    const failing = runTransaction(test.db, async (tx) => {
      await tx.conversation.create({ data: { title: "rolled back", source: "api" } });
      throw new Error("the caller changed its mind");
    });
    const [first, , last] = await Promise.allSettled([
      createConversation(test.db, { title: "kept before", source: "api" }),
      failing,
      createConversation(test.db, { title: "kept after", source: "api" }),
    ]);
    await expect(failing).rejects.toThrow("the caller changed its mind");
    expect(first.status).toBe("fulfilled");
    expect(last.status).toBe("fulfilled");
    expect((await test.db.conversation.findMany({ select: { title: true } })).map((entry) => entry.title).sort()).toEqual(["kept after", "kept before"]);
    expect(connection().counts.commits - before).toBeLessThanOrEqual(2);
  });

  it("[DB-G2] a statement that fails (a unique key taken) fails alone; its group's other writes are kept", async () => {
    await test.db.conversation.count();
    const results = await Promise.allSettled([
      createConversation(test.db, { title: "first", source: "proxy", recordKey: "agent-1" }),
      createConversation(test.db, { title: "second", source: "proxy", recordKey: "agent-1" }),
      createConversation(test.db, { title: "other", source: "proxy", recordKey: "agent-2" }),
    ]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(ConflictError.isInstance((results[1] as PromiseRejectedResult).reason)).toBe(true);
    for (const result of [results[0], results[2]]) {
      if (result.status !== "fulfilled") throw new Error("expected a stored conversation");
      expect((await getConversationById(test.db, result.value.conversation.id)).title).toBe(result === results[0] ? "first" : "other");
    }
  });

  it("[DB-G5] a direct statement goes ahead of the writes queued before it, behind the transaction running", async () => {
    await test.db.conversation.count();
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = new Promise<void>((resolve) => (started = resolve));
    const running = runTransaction(test.db, async (tx) => {
      await tx.conversation.create({ data: { title: "running", source: "api" } });
      started();
      await held;
    });
    await inside;
    const queued = Array.from({ length: 3 }, (_, index) => createConversation(test.db, { title: `queued ${index}`, source: "api" }));
    // Let the queued writes reach the connection's queue before the direct statement asks for it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const direct = connection().runDirect([
      { sql: `INSERT INTO "Conversation" ("id", "title", "source", "updatedAt") VALUES ('c-direct', 'direct', 'api', 0)`, params: [] },
    ]);
    release();
    await Promise.all([running, direct, ...queued]);
    const order = await test.db.$queryRawUnsafe<{ title: string }[]>(`SELECT "title" FROM "Conversation" ORDER BY rowid`);
    expect(order.map((row) => row.title)).toEqual(["running", "direct", "queued 0", "queued 1", "queued 2"]);
  });
});

describe("statements of a transaction on the SQLite driver", () => {
  const test = useTestDatabase("sqlite");

  it("[DB-G6] an append's lock, rows, library counters and conversation stamp run prepared once, without Prisma's queries", async () => {
    const { conversation, branch } = await createConversation(test.db, { title: "direct", source: "api" });
    await appendMessages(test.db, branch.id, [{ message: { role: "user", content: "first" }, tokens: 1 }]);
    const { prepared } = await driverStatementsDuring(async () => {
      const appended = await appendMessages(test.db, branch.id, [{ message: { role: "assistant", content: "second" }, tokens: 2 }], { expectedLength: 1 });
      expect(appended.map((record) => record.position)).toEqual([1]);
    });
    // Nothing is prepared anew, the transaction's frame included: the group's BEGIN and COMMIT, the savepoint and its release.
    expect(prepared).toEqual([]);
    const stored = await getHistoryByBranchId(test.db, branch.id);
    expect(stored.map((record) => record.message.content)).toEqual(["first", "second"]);
    expect((await getBranchById(test.db, branch.id)).length).toBe(2);
    const entry = await test.db.libraryEntry.findUniqueOrThrow({ where: { conversationId: conversation.id } });
    expect(entry).toMatchObject({ messageCount: 2, tokens: 3 });
    expect((await getConversationById(test.db, conversation.id)).updatedAt >= conversation.updatedAt).toBe(true);
  });

  it("[DB-G6] the records an append returns are the rows as Prisma reads them back, and the lock's branch row as Prisma returns it", async () => {
    const { branch } = await createConversation(test.db, { title: "same", source: "api" });
    const appended = await appendMessages(test.db, branch.id, [
      { message: { role: "user", content: "question" }, tokens: 3, metadata: { at: "2026-11-29T10:00:00.000Z" } },
      { message: { role: "assistant", content: "answer" }, tokens: 2 },
    ]);
    expect(appended).toEqual(await getHistoryByBranchId(test.db, branch.id));
    const locked = await runTransaction(test.db, (tx) => lockBranch(tx, branch.id));
    expect(locked).toEqual(await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } }));
    expect(locked.createdAt).toBeInstanceOf(Date);
  });

  it("[DB-G6] a statement on the driver is refused outside a transaction, and a missing branch is NotFoundError as before", async () => {
    await test.db.conversation.count();
    expect(() => connection(test).runHeld('UPDATE "Conversation" SET "title" = "title" WHERE 0', [])).toThrow(/inside an open transaction/);
    await expect(runTransaction(test.db, (tx) => lockBranch(tx, "no-such-branch"))).rejects.toSatisfy((error) => NotFoundError.isInstance(error));
  });
});

function connection(test: { readonly db: object }) {
  const found = sqliteConnectionOf(test.db);
  if (!found) throw new Error("the client has not connected");
  return found;
}
