import { describe, expect, it } from "vitest";
import { createTestDatabase, TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { assistant, turn, user } from "@/tests/support/db-fixtures";
import { exportedLines, sessionText } from "@/tests/support/session-file";
import { readSessionFile } from "@/lib/api/session-file";
import type { Database } from "./client";
import { createConversation, updateConversationById } from "./conversations";
import { createExchange, updateExchangeById } from "./exchanges";
import { getConversationPage, indexUnindexedConversations } from "./library";
import { appendMessages } from "./messages";
import { importSession } from "./session";
import { sqlitePathOf } from "./client";
import { PrismaClient } from "./generated/sqlite/client";
import { createSqliteAdapter } from "./sqlite-adapter";
import { beginStaging } from "./staging";

const titles = async (db: Database, options: Parameters<typeof getConversationPage>[1]) =>
  (await getConversationPage(db, options)).conversations.map((conversation) => conversation.title);

/** A client that counts the model operations it runs (each is one statement or a few, never one per row). */
function countingClient(db: Database): { db: Database; operations: () => number } {
  let count = 0;
  const counted = db.$extends({
    query: {
      $allModels: {
        $allOperations({ args, query }) {
          count += 1;
          return query(args);
        },
      },
    },
  });
  return { db: counted as unknown as Database, operations: () => count };
}

describe.each(TEST_PROVIDERS)("conversation library (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[LB-1] finds a conversation by every word of its title, key, model, agent, messages or date, the last word as a prefix", async () => {
    await createConversation(test.db, {
      title: "Refund for order 4471",
      source: "proxy",
      recordKey: "airline-agent",
      settings: { model: "claude-sonnet-4-5" },
      messages: [user("Please cancel my flight to Zürich"), turn({ role: "assistant", content: "Done." }, { model: "gpt-4o-mini" })],
    });
    await createConversation(test.db, {
      title: "Unrelated",
      source: "import:codex",
      origin: { agent: "codex", sessionId: "s1" },
      messages: [user("hello")],
    });
    expect(await titles(test.db, { q: "refu" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "AIRLINE" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "sonnet" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "gpt-4o" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "zurich" })).toEqual([]);
    expect(await titles(test.db, { q: "zür" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "codex" })).toEqual(["Unrelated"]);
    expect(await titles(test.db, { q: "flight refund" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "flight hello" })).toEqual([]);
    expect(await titles(test.db, { q: "order" })).toEqual(["Refund for order 4471"]);
    // Only the word being typed (the last) is a prefix, from three characters on.
    expect(await titles(test.db, { q: "refund fli" })).toEqual(["Refund for order 4471"]);
    expect(await titles(test.db, { q: "fli refund" })).toEqual([]);
    expect(await titles(test.db, { q: "re" })).toEqual([]);
    expect(await titles(test.db, { q: "44" })).toEqual([]);
    expect(await titles(test.db, { q: "4471" })).toEqual(["Refund for order 4471"]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await titles(test.db, { q: today.slice(0, 7) })).sort()).toEqual(["Refund for order 4471", "Unrelated"]);
  });

  it("[LB-1] finds words appended later, and a renamed conversation by its new title only", async () => {
    const { conversation, branch } = await createConversation(test.db, { title: "Old name", source: "proxy", messages: [user("first")] });
    expect(await titles(test.db, { q: "marmalade" })).toEqual([]);
    await appendMessages(test.db, branch.id, [assistant("the marmalade recipe")]);
    expect(await titles(test.db, { q: "marmalade" })).toEqual(["Old name"]);
    await updateConversationById(test.db, conversation.id, { title: "Kitchen notes" });
    expect(await titles(test.db, { q: "old" })).toEqual([]);
    expect(await titles(test.db, { q: "kitchen marmalade" })).toEqual(["Kitchen notes"]);
    const [row] = (await getConversationPage(test.db, {})).conversations;
    expect(row).toMatchObject({ messageCount: 2, branchCount: 1, failedCalls: 0 });
    expect(row.tokens).toBeGreaterThan(0);
  });

  it("[LB-2] pages with a total in four operations, whatever the page size", async () => {
    for (let index = 0; index < 12; index += 1)
      await createConversation(test.db, { title: `conversation ${index}`, source: "proxy", messages: [user(`m${index}`)] });
    const counting = countingClient(test.db);
    const first = await getConversationPage(counting.db, { limit: 5, sort: "created", order: "asc" });
    expect(counting.operations()).toBe(4);
    const third = await getConversationPage(counting.db, { limit: 5, offset: 10, sort: "created", order: "asc" });
    expect(counting.operations()).toBe(8);
    const whole = await getConversationPage(counting.db, { limit: 12, q: "conversation" });
    expect(counting.operations()).toBe(12);
    expect(first.total).toBe(12);
    expect(first.conversations.map((row) => row.title)).toEqual(["conversation 0", "conversation 1", "conversation 2", "conversation 3", "conversation 4"]);
    expect(third.conversations.map((row) => row.title)).toEqual(["conversation 10", "conversation 11"]);
    expect(whole.conversations).toHaveLength(12);
  });

  it("[LB-3] filters by source, failed calls and budget stops", async () => {
    const imported = await createConversation(test.db, { title: "imported", source: "import:openai", messages: [user("a")] });
    const proxied = await createConversation(test.db, { title: "proxied", source: "proxy", messages: [user("b")] });
    await createConversation(test.db, { title: "agent session", source: "import:claude-code", origin: { agent: "claude-code" }, messages: [user("c")] });
    const stopped = await createConversation(test.db, { title: "stopped", source: "proxy", messages: [user("d")] });
    const failing = await createExchange(test.db, proxied.branch.id, { request: { messages: [] } });
    await updateExchangeById(test.db, failing.id, { status: 500, error: { source: "upstream", type: "server_error" } });
    await createExchange(test.db, imported.branch.id, { request: { messages: [] } });
    const refused = await createExchange(test.db, stopped.branch.id, { request: { messages: [] } });
    await updateExchangeById(test.db, refused.id, { status: 400, error: { source: "pipeline", code: "context_budget_exceeded", budget: 10, tokens: 20 } });

    expect((await titles(test.db, { source: "import" })).sort()).toEqual(["agent session", "imported"]);
    expect((await titles(test.db, { source: "proxy" })).sort()).toEqual(["proxied", "stopped"]);
    expect(await titles(test.db, { source: "agent" })).toEqual(["agent session"]);
    expect((await titles(test.db, { failed: true })).sort()).toEqual(["proxied", "stopped"]);
    expect(await titles(test.db, { overBudget: true })).toEqual(["stopped"]);
    expect(await titles(test.db, { failed: true, source: "proxy", q: "prox" })).toEqual(["proxied"]);
    const page = await getConversationPage(test.db, { failed: true, sort: "title", order: "asc" });
    expect(page.conversations.map((row) => [row.title, row.failedCalls])).toEqual([
      ["proxied", 1],
      ["stopped", 1],
    ]);
  });

  it("[LB-4] sorts by stored messages, tokens and title, both ways", async () => {
    const small = await createConversation(test.db, { title: "b small", source: "proxy", messages: [user("x")] });
    await createConversation(test.db, { title: "a large", source: "proxy", messages: [user("x"), assistant("y"), user("z")] });
    await createConversation(test.db, { title: "c wordy", source: "proxy", messages: [user("a much longer message than the others ".repeat(20))] });
    await appendMessages(test.db, small.branch.id, [assistant("one"), user("two"), assistant("three"), user("four")]);
    expect(await titles(test.db, { sort: "messages" })).toEqual(["b small", "a large", "c wordy"]);
    expect(await titles(test.db, { sort: "tokens", order: "desc" })).toEqual(["c wordy", "b small", "a large"]);
    expect(await titles(test.db, { sort: "title", order: "asc" })).toEqual(["a large", "b small", "c wordy"]);
    expect(await titles(test.db, { sort: "updated" })).toEqual(["b small", "c wordy", "a large"]);
  });

  it("[LB-6] lists no staged conversation, and indexes session files and conversations stored before the library", async () => {
    const staging = beginStaging(test.db);
    await createConversation(test.db, { title: "half imported", source: staging.source, messages: [user("pending words")] });
    staging.end();
    expect(await getConversationPage(test.db, { q: "pending" })).toEqual({ conversations: [], total: 0 });

    const { conversation } = await createConversation(test.db, { title: "Travel", source: "proxy", messages: [user("a booking in Lisbon")] });
    const text = sessionText(await exportedLines(test.db, conversation.id));
    await test.db.conversation.delete({ where: { id: conversation.id } });
    const request = new Request("http://localhost/api/sessions", { method: "POST", body: text, headers: { "content-type": "application/x-ndjson" } });
    await importSession(test.db, await readSessionFile(request));
    expect(await titles(test.db, { q: "lisbon travel" })).toEqual(["Travel"]);

    // As the migration leaves a conversation stored before it: counted, not yet indexed.
    await test.db.searchTerm.deleteMany({ where: { conversationId: conversation.id } });
    await test.db.libraryEntry.update({ where: { conversationId: conversation.id }, data: { indexed: false, messageCount: 0 } });
    expect(await titles(test.db, { q: "lisbon" })).toEqual([]);
    expect(await indexUnindexedConversations(test.db)).toBe(1);
    expect(await indexUnindexedConversations(test.db)).toBe(0);
    expect(await titles(test.db, { q: "lisbon travel" })).toEqual(["Travel"]);
    expect((await getConversationPage(test.db, { q: "lisbon" })).conversations[0].messageCount).toBe(1);
  });
});

describe("conversation library: SQL statements", () => {
  it("[LB-2] reads any page in five statements: the page, its entries, the total, its branch and failed-call counts", async () => {
    const database = await createTestDatabase("sqlite");
    // The only client used on the file (database.db is never connected): two clients on one SQLite file in one process can deadlock.
    const factory = createSqliteAdapter(sqlitePathOf(database.url));
    let statements = 0;
    const counting = new PrismaClient({
      adapter: {
        ...factory,
        connect: async () => {
          const adapter = await factory.connect();
          // The connection's methods live on its prototype: a spread would lose them.
          return Object.assign(Object.create(adapter) as typeof adapter, {
            queryRaw: (query: Parameters<typeof adapter.queryRaw>[0]) => {
              statements += 1;
              return adapter.queryRaw(query);
            },
          });
        },
      },
    });
    try {
      for (let index = 0; index < 30; index += 1)
        await createConversation(counting, { title: `report ${index}`, source: "proxy", messages: [user("quarterly numbers")] });
      await getConversationPage(counting, { limit: 1 });
      statements = 0;
      expect((await getConversationPage(counting, { limit: 1 })).conversations).toHaveLength(1);
      expect(statements).toBe(5);
      statements = 0;
      expect((await getConversationPage(counting, { limit: 30, q: "quarterly report", failed: false, sort: "tokens" })).total).toBe(30);
      expect(statements).toBe(5);
    } finally {
      await counting.$disconnect();
      await database.cleanup();
    }
  });
});
