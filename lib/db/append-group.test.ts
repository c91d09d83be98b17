import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { useTestDatabase } from "@/tests/support/db";
import { driverStatementsDuring } from "@/tests/support/driver-statements";
import { appendGroupsOf, appendMessagesGrouped } from "./append-group";
import { getBranchById } from "./branches";
import type { Database } from "./client";
import { createConversation, getConversationById } from "./conversations";
import { ConflictError, NotFoundError } from "./errors";
import { appendMessages, getHistoryByBranchId, type NewMessage } from "./messages";

const turn = (content: string, tokens = 2): NewMessage => ({ message: { role: "user", content }, tokens });

/** `count` conversations with one message each on their root branch. */
async function conversations(db: Database, count: number) {
  const made = [];
  for (let index = 0; index < count; index += 1) {
    const { conversation, branch } = await createConversation(db, { title: `agent ${index}`, source: "proxy" });
    await appendMessages(db, branch.id, [turn(`opening ${index}`, 1)]);
    made.push({ conversation, branch: await db.branch.findUniqueOrThrow({ where: { id: branch.id } }) });
  }
  return made;
}

const statementsDuring = async (work: () => Promise<void>) => (await driverStatementsDuring(work)).sent.map((statement) => statement.text);

describe("appends of many branches in one transaction (PostgreSQL)", () => {
  const test = useTestDatabase("postgres");

  it("[DB-G10] the appends made together are one transaction of eight statements, whatever their number, and leave what appends one by one leave", async () => {
    const made = await conversations(test.db, 6);
    const groups = appendGroupsOf(test.db)!;
    const before = groups.groups;
    let appended: Awaited<ReturnType<typeof appendMessagesGrouped>>[] = [];
    const sent = await statementsDuring(async () => {
      appended = await Promise.all(
        made.map(({ branch }, index) =>
          appendMessagesGrouped(test.db, branch.id, [turn(`question ${index} about refunds`), turn(`answer ${index}`, 3)], {
            expectedLength: 1,
            expectedRevision: branch.revision,
          }),
        ),
      );
    });
    expect(groups.groups - before).toBe(1);
    expect(sent.map((text) => text.split(" ").slice(0, 3).join(" "))).toEqual([
      "BEGIN",
      'SELECT "id", "name",',
      'UPDATE "Branch" AS',
      'INSERT INTO "Message"',
      'UPDATE "LibraryEntry" AS',
      'INSERT INTO "SearchTerm"',
      'UPDATE "Conversation" SET',
      "COMMIT",
    ]);
    for (const [index, { conversation, branch }] of made.entries()) {
      const history = await getHistoryByBranchId(test.db, branch.id);
      expect(appended[index]).toEqual(history.slice(1));
      expect(history.map((record) => [record.position, record.message.content])).toEqual([
        [0, `opening ${index}`],
        [1, `question ${index} about refunds`],
        [2, `answer ${index}`],
      ]);
      const stored = await test.db.branch.findUniqueOrThrow({ where: { id: branch.id } });
      expect([stored.length, stored.revision]).toEqual([3, branch.revision + 1]);
      expect(await test.db.libraryEntry.findUniqueOrThrow({ where: { conversationId: conversation.id } })).toMatchObject({ messageCount: 3, tokens: 6 });
      const words = await test.db.searchTerm.findMany({ where: { conversationId: conversation.id, kind: "said", term: { in: ["refunds", "answer"] } } });
      expect(words.map((word) => word.term).sort()).toEqual(["answer", "refunds"]);
      expect((await getConversationById(test.db, conversation.id)).updatedAt >= conversation.updatedAt).toBe(true);
    }
  });

  it("[DB-G10] an append whose branch moved on fails alone with ConflictError; one whose branch is gone with NotFoundError; the rest of the group is written", async () => {
    const [moved, steady] = await conversations(test.db, 2);
    // Written after `moved.branch` was read: its revision is no longer the one the append names.
    await appendMessages(test.db, moved.branch.id, [turn("meanwhile")]);
    const results = await Promise.allSettled([
      appendMessagesGrouped(test.db, moved.branch.id, [turn("late")], { expectedLength: 1, expectedRevision: moved.branch.revision }),
      appendMessagesGrouped(test.db, steady.branch.id, [turn("on time")], { expectedLength: 1, expectedRevision: steady.branch.revision }),
      appendMessagesGrouped(test.db, "no-such-branch", [turn("nowhere")], { expectedLength: 0, expectedRevision: 0 }),
    ]);
    expect(results[0].status === "rejected" && ConflictError.isInstance(results[0].reason)).toBe(true);
    expect(results[1].status).toBe("fulfilled");
    expect(results[2].status === "rejected" && NotFoundError.isInstance(results[2].reason)).toBe(true);
    expect((await getHistoryByBranchId(test.db, moved.branch.id)).map((record) => record.message.content)).toEqual(["opening 0", "meanwhile"]);
    expect((await getHistoryByBranchId(test.db, steady.branch.id)).map((record) => record.message.content)).toEqual(["opening 1", "on time"]);
  });

  it("[DB-G10] two appends to one branch go in two groups, the second at the length the first leaves", async () => {
    const [{ branch }] = await conversations(test.db, 1);
    const groups = appendGroupsOf(test.db)!;
    const before = groups.groups;
    await Promise.all([
      appendMessagesGrouped(test.db, branch.id, [turn("first")], { expectedLength: 1, expectedRevision: branch.revision }),
      appendMessagesGrouped(test.db, branch.id, [turn("second")], { expectedLength: 2, expectedRevision: branch.revision + 1 }),
    ]);
    expect(groups.groups - before).toBe(2);
    expect((await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content)).toEqual(["opening 0", "first", "second"]);
  });

  it("[DB-G10] when the group's transaction fails, nothing of it is kept and each append is made on its own", async () => {
    const made = await conversations(test.db, 3);
    const groups = appendGroupsOf(test.db)!;
    const fallbacks = groups.fallbacks;
    const query = pg.Client.prototype.query;
    let refused = 0;
    // The database refuses the group's library statement once, after its messages were inserted.
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      if (typeof text === "string" && text.startsWith('UPDATE "LibraryEntry" AS l') && refused === 0) {
        refused += 1;
        return Promise.reject(new Error("refused for the test"));
      }
      return (query as (...values: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    try {
      await Promise.all(
        made.map(({ branch }, index) =>
          appendMessagesGrouped(test.db, branch.id, [turn(`alone ${index}`)], { expectedLength: 1, expectedRevision: branch.revision }),
        ),
      );
    } finally {
      spy.mockRestore();
    }
    expect(refused).toBe(1);
    expect(groups.fallbacks - fallbacks).toBe(1);
    for (const [index, { conversation, branch }] of made.entries()) {
      // Once each: the group's rows were rolled back before the appends were made again.
      expect((await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content)).toEqual([`opening ${index}`, `alone ${index}`]);
      expect(await test.db.libraryEntry.findUniqueOrThrow({ where: { conversationId: conversation.id } })).toMatchObject({ messageCount: 2 });
    }
  });

  it("[DB-G10] a branch another transaction holds does not hold up the group: the others are written, and its append lands once the lock is released", async () => {
    const [held, free] = await conversations(test.db, 2);
    const other = test.current.connect();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = other.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT "id" FROM "Branch" WHERE "id" = $1 FOR UPDATE`, held.branch.id);
        holding();
        await released;
      },
      { timeout: 30_000 },
    );
    await isHolding;
    let heldSettled = false;
    const heldAppend = appendMessagesGrouped(test.db, held.branch.id, [turn("waited")], { expectedLength: 1, expectedRevision: held.branch.revision }).finally(
      () => {
        heldSettled = true;
      },
    );
    await appendMessagesGrouped(test.db, free.branch.id, [turn("not held up")], { expectedLength: 1, expectedRevision: free.branch.revision });
    expect((await getHistoryByBranchId(test.db, free.branch.id)).map((record) => record.message.content)).toEqual(["opening 1", "not held up"]);
    expect(heldSettled).toBe(false);
    release();
    await holder;
    expect((await heldAppend).map((record) => [record.position, record.message.content])).toEqual([[1, "waited"]]);
    expect((await getHistoryByBranchId(test.db, held.branch.id)).map((record) => record.message.content)).toEqual(["opening 0", "waited"]);
  });

  it("[DB-G10] two servers appending to the same branches at once never wait for each other's groups: every append lands once", async () => {
    const other = test.current.connect();
    const made = await conversations(test.db, 8);
    // Each server appends to every branch, in opposite orders; an append that finds its branch moved reads it and goes again.
    const appendAll = async (db: Database, order: typeof made, label: string) => {
      await Promise.all(
        order.map(async ({ branch }) => {
          for (;;) {
            const current = await db.branch.findUniqueOrThrow({ where: { id: branch.id } });
            try {
              return await appendMessagesGrouped(db, branch.id, [turn(label)], { expectedLength: current.length, expectedRevision: current.revision });
            } catch (error) {
              if (!ConflictError.isInstance(error)) throw error;
            }
          }
        }),
      );
    };
    await Promise.all([appendAll(test.db, made, "from one"), appendAll(other, [...made].reverse(), "from two")]);
    for (const { branch } of made) {
      const contents = (await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message.content);
      expect(contents.slice(1).sort()).toEqual(["from one", "from two"]);
      expect((await getBranchById(test.db, branch.id)).length).toBe(3);
    }
  });
});

describe("appends elsewhere (SQLite)", () => {
  const test = useTestDatabase("sqlite");

  it("[DB-G10] are made one by one in their own transaction, with the same checks", async () => {
    expect(appendGroupsOf(test.db)).toBeNull();
    const created = await createConversation(test.db, { title: "alone", source: "proxy" });
    const branch = await test.db.branch.findUniqueOrThrow({ where: { id: created.branch.id } });
    const appended = await appendMessagesGrouped(test.db, branch.id, [turn("one")], { expectedLength: 0, expectedRevision: branch.revision });
    expect(appended).toEqual(await getHistoryByBranchId(test.db, branch.id));
    await expect(appendMessagesGrouped(test.db, branch.id, [turn("stale")], { expectedLength: 0, expectedRevision: branch.revision })).rejects.toSatisfy(
      (error) => ConflictError.isInstance(error),
    );
  });
});
