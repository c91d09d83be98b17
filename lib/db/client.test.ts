import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, TEST_POSTGRES_URL, type TestDatabase } from "@/tests/support/db";
import { dialogue, seedConversation, user } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import { createDatabase, describeDatabase, getDatabase, sqlitePathOf, type Database } from "./client";
import { createConversation, getConversationById, getConversations } from "./conversations";
import { DatabaseUnavailableError } from "./errors";
import { appendMessages, getHistoryByBranchId } from "./messages";
import { createSummary, getSummaryChainByBranchId } from "./summaries";

const opened: Database[] = [];
const databases: TestDatabase[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.$disconnect()));
  await Promise.all(databases.splice(0).map((database) => database.cleanup()));
});

function open(url: string): Database {
  const db = createDatabase(url);
  opened.push(db);
  return db;
}

async function testDatabase(provider: "sqlite" | "postgres"): Promise<TestDatabase> {
  const database = await createTestDatabase(provider);
  databases.push(database);
  return database;
}

describe("createDatabase", () => {
  it("resolves relative SQLite paths against the working directory", () => {
    expect(sqlitePathOf("file:./data/context-lab.db")).toBe(path.join(process.cwd(), "data", "context-lab.db"));
    expect(sqlitePathOf("file:/var/lib/x.db?connection_limit=1")).toBe("/var/lib/x.db");
    expect(sqlitePathOf("file:///var/lib/x.db")).toBe("/var/lib/x.db");
  });

  it("creates the SQLite file's folder", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-client-"));
    try {
      const db = open(`file:${path.join(folder, "nested", "deeper", "lab.db")}`);
      await db.$queryRawUnsafe("SELECT 1");
      expect(fs.existsSync(path.join(folder, "nested", "deeper", "lab.db"))).toBe(true);
      await db.$disconnect();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it("describes databases without their credentials", () => {
    const db = open("postgresql://alice:secret@db.internal:6543/lab?schema=tenant_1");
    expect(describeDatabase(db)).toEqual({ provider: "postgres", location: "postgres://db.internal:6543/lab?schema=tenant_1" });
  });

  it("keeps one process-wide client for the app", () => {
    expect(getDatabase()).toBe(getDatabase());
  });
});

describe("DatabaseUnavailableError", () => {
  it("is thrown for a PostgreSQL port nobody listens on, naming the database and how to start it", async () => {
    const db = open("postgresql://postgres@127.0.0.1:1/test?schema=nowhere");
    const failure = getConversations(db);
    await expect(failure).rejects.toSatisfy(DatabaseUnavailableError.isInstance);
    await expect(failure).rejects.toThrow(/PostgreSQL database postgres:\/\/127\.0\.0\.1:1\/test\?schema=nowhere is unavailable: .*pg_ctlcluster/);
    // Transactions fail the same way.
    await expect(createConversation(db, { title: "t", source: "proxy" })).rejects.toSatisfy(DatabaseUnavailableError.isInstance);
  });

  it("is thrown for a SQLite path that cannot be opened, naming the file", async () => {
    const blocker = path.join(os.tmpdir(), `context-lab-not-a-folder-${process.pid}`);
    fs.writeFileSync(blocker, "a file where a folder should be");
    try {
      const db = open(`file:${blocker}/lab.db`);
      const failure = getConversations(db);
      await expect(failure).rejects.toSatisfy(DatabaseUnavailableError.isInstance);
      await expect(failure).rejects.toThrow(`SQLite database sqlite:${blocker}/lab.db is unavailable`);
    } finally {
      fs.rmSync(blocker, { force: true });
    }
  });

  it("says to run the migrations when the tables are missing", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-empty-"));
    try {
      const db = open(`file:${path.join(folder, "empty.db")}`);
      await expect(getConversations(db)).rejects.toThrow(/has no Context Lab tables: run `npm run db migrate`/);
      await db.$disconnect();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const postgres = open(`${TEST_POSTGRES_URL}?schema=no_such_schema_here`);
    await expect(getConversations(postgres)).rejects.toSatisfy(DatabaseUnavailableError.isInstance);
  });
});

describe("restart", () => {
  it("shows a new client on the same SQLite file everything the last one wrote", async () => {
    const database = await testDatabase("sqlite");
    const { conversation, branch } = await seedConversation(database.db, 4, "before restart");
    await createSummary(database.db, branch.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 1 });
    const fork = await forkBranch(database.db, branch.id, { position: 2 });
    await appendMessages(database.db, fork.id, [user("fork turn")]);
    await database.db.$disconnect();

    const restarted = database.connect();
    expect((await getConversationById(restarted, conversation.id)).title).toBe("before restart");
    expect((await getHistoryByBranchId(restarted, fork.id)).map((record) => record.message.content)).toEqual(["u0", "a1", "fork turn"]);
    expect((await getSummaryChainByBranchId(restarted, fork.id)).map((summary) => summary.text)).toEqual(["S1"]);
    // Positions continue where the last process stopped.
    expect((await appendMessages(restarted, branch.id, [user("u4")]))[0].position).toBe(4);
  });

  it("waits for another process's write instead of failing with 'database is locked'", async () => {
    const database = await testDatabase("sqlite");
    const { branch } = await seedConversation(database.db, 1);
    // Another process (a script, the Prisma CLI) holds the write lock for a while.
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(process.argv[1]);
         db.exec("BEGIN IMMEDIATE");
         db.prepare("INSERT INTO Conversation (id, title, source, updatedAt) VALUES ('other', 'other process', 'test', 0)").run();
         console.log("locked");
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
         db.exec("COMMIT");`,
        sqlitePathOf(database.url),
      ],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const appended = await appendMessages(database.db, branch.id, [user("after the other process")]);
    expect(await exited).toBe(0);
    expect(appended[0].position).toBe(1);
    expect((await getConversations(database.db)).map((conversation) => conversation.title).sort()).toEqual(["other process", "seeded"]);
  });
});

describe("the SQLite connection", () => {
  it("keeps a write made outside a transaction when a concurrent transaction rolls back", async () => {
    const database = await testDatabase("sqlite");
    const { db } = database;
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = new Promise<void>((resolve) => (started = resolve));
    const failing = db.$transaction(async (tx) => {
      await tx.conversation.create({ data: { title: "rolled back", source: "test" } });
      started();
      await held;
      throw new Error("abort");
    });
    await inside;
    // Issued while the transaction holds the one connection: it must wait, not join it.
    const standalone = db.conversation.create({ data: { title: "standalone", source: "test" } });
    // Joining the transaction would let it finish now; waiting keeps it pending.
    await Promise.race([standalone, new Promise((resolve) => setTimeout(resolve, 300))]);
    release();
    await expect(failing).rejects.toThrow("abort");
    await standalone;
    expect((await getConversations(db)).map((conversation) => conversation.title)).toEqual(["standalone"]);
  });

  it("[RL-ST6] answers a read outside a transaction while a transaction is open, with the last commit", async () => {
    const database = await testDatabase("sqlite");
    const { db } = database;
    await db.conversation.create({ data: { title: "committed", source: "test" } });
    let release!: () => void;
    let started!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inside = new Promise<void>((resolve) => (started = resolve));
    const order: string[] = [];
    const writing = db.$transaction(async (tx) => {
      await tx.conversation.create({ data: { title: "uncommitted", source: "test" } });
      started();
      await held;
      order.push("commit");
    });
    await inside;
    // The transaction holds the writing connection until `release`: the read must not wait for it.
    const titles = (await getConversations(db)).map((conversation) => conversation.title);
    order.push("read");
    release();
    await writing;
    expect(order).toEqual(["read", "commit"]);
    expect(titles).toEqual(["committed"]);
    expect((await getConversations(db)).map((conversation) => conversation.title).sort()).toEqual(["committed", "uncommitted"]);
  });

  it("[RL-ST6] lets other work run during a long chain of reads, as during writes", async () => {
    const database = await testDatabase("sqlite");
    await seedConversation(database.db, 4);
    let ran = false;
    setImmediate(() => (ran = true));
    let reads = 0;
    // better-sqlite3 answers at once: without a yield the chain settles as microtasks and the callback waits for all 3,000.
    while (!ran && reads < 3_000) {
      await getConversations(database.db);
      reads += 1;
    }
    expect(ran).toBe(true);
    expect(reads).toBeLessThan(3_000);
  });

  it("[RL-ST6] sends only plain SELECTs to the read-only reader: a write that returns rows still writes", async () => {
    const database = await testDatabase("sqlite");
    const inserted = await database.db.$queryRawUnsafe(
      "INSERT INTO Conversation (id, title, source, updatedAt) VALUES ('x', 'returned', 'test', 0) RETURNING id",
    );
    expect(inserted).toEqual([{ id: "x" }]);
    expect((await getConversations(database.db)).map((conversation) => conversation.title)).toEqual(["returned"]);
  });

  it("imports large conversations without exceeding SQLite's bound-parameter limit", async () => {
    const database = await testDatabase("sqlite");
    const { branch } = await createConversation(database.db, { title: "big", source: "import:openai", messages: dialogue(4000) });
    expect(branch.length).toBe(4000);
  });
});
