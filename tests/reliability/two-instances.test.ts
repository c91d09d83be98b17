import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import { describeError } from "@/lib/api/errors";
import { importConversations } from "@/lib/api/import";
import type { Message } from "@/lib/context";
import { appendMessages, createConversation, deleteConversationById, getConversations, STAGING_SOURCE_PREFIX, type Database } from "@/lib/db";
import { call } from "@/tests/api/support";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/tests/support/db";

// [IN-1][IN-2] Two app instances on one database are two clients of it (two connection pools):
// here `first` and `second`, or `appending` and `deleting`.

const COUNT = 100_000;
/** Short enough that an import whose lease were not renewed would be deleted by the other's clean-ups. */
const LEASE_MS = 1_000;
/** Writers appending to one branch while it is deleted. */
const WRITERS = 12;
const words = ["the", "booking", "flight", "refund", "passenger", "baggage", "seat", "upgrade", "policy", "reservation", "cancel", "change"];

function jsonl(count: number): string {
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify({
      role: index % 2 === 0 ? "user" : "assistant",
      content: Array.from({ length: 12 + (index % 12) }, (_, word) => words[(index * 7 + word) % words.length]).join(" "),
    }),
  ).join("\n");
}

describe("two instances importing into one PostgreSQL", () => {
  let database: TestDatabase;
  let first: Database;
  let second: Database;
  let configured: string | undefined;

  beforeAll(async () => {
    configured = process.env.CONTEXT_LAB_STAGING_LEASE_MS;
    process.env.CONTEXT_LAB_STAGING_LEASE_MS = String(LEASE_MS);
    database = await createTestDatabase("postgres");
    first = database.db;
    second = database.connect();
  });
  afterAll(async () => {
    if (configured === undefined) delete process.env.CONTEXT_LAB_STAGING_LEASE_MS;
    else process.env.CONTEXT_LAB_STAGING_LEASE_MS = configured;
    await database?.cleanup();
  });

  it("[IN-1] a 100,000-message import on one and one-message imports every 200 ms on the other both complete whole", async () => {
    let importing = true;
    const small: string[] = [];
    const smallImports = (async () => {
      for (let index = 0; importing; index += 1) {
        const result = await importConversations(second, JSON.stringify([{ role: "user", content: `small ${index}` }]), { title: `small ${index}` });
        expect(result.conversations[0].messageCount).toBe(1);
        small.push(result.conversations[0].conversation.id);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const big = await importConversations(first, jsonl(COUNT), { format: "jsonl", title: "big" }).finally(() => {
      importing = false;
    });
    await smallImports;

    expect(big.conversations[0].messageCount).toBe(COUNT);
    expect(await first.message.count({ where: { branchId: big.conversations[0].branch.id } })).toBe(COUNT);
    // The small imports kept coming while the big one ran, each of them cleaning up staged rows on its way in.
    expect(small.length).toBeGreaterThanOrEqual(5);
    const listed = await getConversations(first, { limit: 500 });
    expect(listed.map((conversation) => conversation.id).sort()).toEqual([big.conversations[0].conversation.id, ...small].sort());
    expect(listed.find((conversation) => conversation.title === "big")?.messageCount).toBe(COUNT);
    expect(listed.filter((conversation) => conversation.title.startsWith("small ")).map((conversation) => conversation.messageCount)).toEqual(
      small.map(() => 1),
    );
    expect(await first.conversation.count({ where: { source: { startsWith: STAGING_SOURCE_PREFIX } } })).toBe(0);
  }, 300_000);
});

describe.each(TEST_PROVIDERS)("a DELETE during appends (%s)", (provider) => {
  let database: TestDatabase;
  let appending: Database;
  let deleting: Database;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    appending = database.db;
    // Never two clients on one SQLite file in one process (lib/db/README.md): there one client plays both instances.
    deleting = provider === "postgres" ? database.connect() : appending;
  });
  afterEach(() => resetDatabaseForTests());
  afterAll(async () => database?.cleanup());

  it.each([1, 2, 3, 4])("[IN-2] run %i: the conversation is gone and every append that lost the race answers 404", async () => {
    useDatabaseForTests(appending);
    const { conversation, branch } = await createConversation(appending, { title: "deleted while written", source: "api" });
    const statuses: number[] = [];
    let acknowledged = 0;
    const appendUntilGone = async (writer: number) => {
      for (let turn = 0; ; turn += 1) {
        const messages: Message[] = [{ role: "user", content: `writer ${writer} turn ${turn}` }];
        // Half the writers go through the first instance's route (queued per branch), half straight to the second's client.
        const status =
          writer % 2 === 0
            ? (await call(messagesRoute.POST, { params: { branchId: branch.id }, body: { messages } })).status
            : await appendMessages(
                deleting,
                branch.id,
                messages.map((message) => ({ message, tokens: 5 })),
              ).then(
                () => 201,
                (error: unknown) => describeError(error).status,
              );
        statuses.push(status);
        if (status === 201) acknowledged += 1;
        else return;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, writer) => appendUntilGone(writer));
    await expect.poll(() => acknowledged, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(16);
    await deleteConversationById(deleting, conversation.id);
    await Promise.all(writers);

    expect(new Set(statuses)).toEqual(new Set([201, 404]));
    expect(statuses.filter((status) => status === 404)).toHaveLength(WRITERS);
    expect((await call(conversationRoute.GET, { params: { id: conversation.id } })).status).toBe(404);
    expect(await appending.branch.count({ where: { id: branch.id } })).toBe(0);
    expect(await appending.message.count({ where: { branchId: branch.id } })).toBe(0);
  });
});
