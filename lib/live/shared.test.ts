import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appendMessages, createConversation, getConversationById, type ConversationRecord } from "@/lib/db";
import { createTestDatabase, type TestDatabase } from "@/tests/support/db";
import { LiveBus } from "./bus";
import type { LiveEvent } from "./events";
import { liveChannelOf, MAX_NOTIFY_BYTES, noticeOf, SharedLive } from "./shared";

/** Resolves when `predicate` holds, polling; fails after 10 s with `what`. */
async function eventually(what: string, predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One app instance's live side: its bus, what its tabs heard, and its share of PostgreSQL. */
function instance(database: TestDatabase) {
  const bus = new LiveBus();
  const heard: LiveEvent[] = [];
  bus.subscribe("*", (event) => heard.push(event));
  let listening = 0;
  const shared = new SharedLive({ url: database.url, db: database.connect(), bus, onListening: () => (listening += 1) });
  return { bus, heard, shared, listening: () => listening };
}

const updated = (conversation: ConversationRecord, appended: Extract<LiveEvent, { type: "conversation-updated" }>["appended"] = null): LiveEvent => ({
  type: "conversation-updated",
  conversationId: conversation.id,
  at: new Date().toISOString(),
  conversation,
  created: false,
  appended,
});

describe("live events shared through PostgreSQL", () => {
  let database: TestDatabase;
  let a: ReturnType<typeof instance>;
  let b: ReturnType<typeof instance>;
  let conversation: ConversationRecord;
  let branchId: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const created = await createConversation(database.db, { title: "shared", source: "api" });
    conversation = created.conversation;
    branchId = created.branch.id;
    a = instance(database);
    b = instance(database);
    await eventually("both instances listening", () => a.listening() === 1 && b.listening() === 1);
  }, 60_000);

  afterAll(async () => {
    await a?.shared.stop();
    await b?.shared.stop();
    await database?.cleanup();
  });

  it("[LV-1][LV-2] an event published on one instance reaches the other's tabs once, and its own tabs once", async () => {
    const event = updated(conversation);
    a.bus.publish(event);
    expect(a.heard).toEqual([event]);
    await eventually("the event on b", () => b.heard.length === 1);
    expect(b.heard).toEqual([event]);
    // Its own notification came back to a and was skipped.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(a.heard).toHaveLength(1);
    expect(a.shared.received).toBe(0);
    a.heard.length = 0;
    b.heard.length = 0;
  });

  it("[LV-7] the events published within the window go out in one statement, over several turns of the event loop, and arrive in order", async () => {
    const before = a.shared.notified;
    const events = Array.from({ length: 30 }, (_, index) => ({ ...updated(conversation), at: new Date(Date.UTC(2026, 10, 29, 12, 0, index)).toISOString() }));
    for (const [index, event] of events.entries()) {
      a.bus.publish(event);
      // A call's events come a few turns of the event loop apart.
      if (index % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    await eventually("the 30 events on b", () => b.heard.length === 30);
    expect(b.heard).toEqual(events);
    expect(a.shared.notified - before).toBe(1);
    a.heard.length = 0;
    b.heard.length = 0;
  });

  it("[LV-7] an instance that stops sends the events still waiting for their window", async () => {
    const leaving = instance(database);
    await eventually("the third instance listening", () => leaving.listening() === 1);
    const before = leaving.shared.notified;
    const event = updated(conversation);
    leaving.bus.publish(event);
    await leaving.shared.stop();
    expect(leaving.shared.notified - before).toBe(1);
    await eventually("the event on a and b", () => a.heard.length === 1 && b.heard.length === 1);
    expect(b.heard).toEqual([event]);
    a.heard.length = 0;
    b.heard.length = 0;
  });

  it("[LV-3] an update too large for one notification is read back from the database, whole", async () => {
    const long = "The passenger's full itinerary, fare rules and baggage history. ".repeat(400);
    const records = await appendMessages(database.db, branchId, [
      { message: { role: "user", content: long }, tokens: 0 },
      { message: { role: "assistant", content: "Noted." }, tokens: 0 },
    ]);
    const fresh = await getConversationById(database.db, conversation.id);
    const event = updated(fresh, { branchId, branchLength: records.at(-1)!.position + 1, messages: records });
    expect(Buffer.byteLength(JSON.stringify(event))).toBeGreaterThan(MAX_NOTIFY_BYTES);
    expect(Buffer.byteLength(noticeOf("x", event)!)).toBeLessThan(1_000);
    a.bus.publish(event);
    await eventually("the large event on b", () => b.heard.length === 1);
    expect(JSON.parse(JSON.stringify(b.heard[0]))).toEqual(JSON.parse(JSON.stringify(event)));
    a.heard.length = 0;
    b.heard.length = 0;
  });

  it("[LV-4] a listening connection cut by the server comes back and hears the next events", async () => {
    const pid = await b.shared.backendPid();
    expect(pid).not.toBeNull();
    const plain = new URL(database.url);
    plain.searchParams.delete("schema");
    const admin = new pg.Client({ connectionString: plain.toString() });
    await admin.connect();
    try {
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    } finally {
      await admin.end();
    }
    await eventually("b listening again", () => b.listening() === 2);
    expect(await b.shared.backendPid()).not.toBe(pid);
    const event = updated(conversation);
    a.bus.publish(event);
    await eventually("the event on b after the cut", () => b.heard.length === 1);
    expect(b.heard).toEqual([event]);
  });

  it("[LV-6] a new instance's listening promise settles once it listens: an event published right after reaches it", async () => {
    const c = instance(database);
    try {
      await c.shared.listening;
      expect(c.listening()).toBe(1);
      const event = updated(conversation);
      a.bus.publish(event);
      await eventually("the event on the new instance", () => c.heard.length === 1);
      expect(c.heard).toEqual([event]);
    } finally {
      await c.shared.stop();
    }
  });

  it("[LV-5] each schema has its own channel: instances of another database never hear these", () => {
    const url = new URL(database.url);
    expect(liveChannelOf(url.toString())).toBe(`context_lab_live:${url.searchParams.get("schema")}`);
    url.searchParams.set("schema", "other");
    expect(liveChannelOf(url.toString())).toBe("context_lab_live:other");
    url.searchParams.delete("schema");
    expect(liveChannelOf(url.toString())).toBe("context_lab_live");
  });
});
