import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import { useDatabaseForTests } from "@/lib/api/database";
import { MAX_IMPORT_BODY_BYTES } from "@/lib/api/http";
import { MAX_IMPORT_CONVERSATIONS } from "@/lib/api/import";
import { sharedCounter } from "@/lib/context";
import { DatabaseUnavailableError, type Database, type MessageRecord } from "@/lib/db";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TAU_BENCH_FULL, readFixture } from "@/tests/fixtures/import/load";
import { TEST_PROVIDERS } from "@/tests/support/db";

const importText = (text: string, query = "") =>
  call(importRoute.POST, { url: `/api/conversations/import${query}`, body: text, headers: { "content-type": "text/plain" } });

async function conversationCount(): Promise<number> {
  return (await call(conversationsRoute.GET)).body.conversations.length;
}

async function historyOf(branchId: string): Promise<MessageRecord[]> {
  return (await call(messagesRoute.GET, { params: { branchId } })).body.messages;
}

/** A client that tells `before` the number of each transaction it starts; what `before` throws, the transaction rejects with. */
function watchedDatabase(db: Database, before: (transaction: number) => void): Database {
  let transactions = 0;
  return new Proxy(db, {
    get(target, property) {
      if (property === "$transaction") {
        return (...args: unknown[]) => {
          transactions += 1;
          try {
            before(transactions);
          } catch (error) {
            return Promise.reject(error);
          }
          return (target.$transaction as (...inner: unknown[]) => unknown)(...args);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A client whose `failAt`-th transaction fails as if the database went away. */
function failingDatabase(db: Database, failAt: number): Database {
  return watchedDatabase(db, (transaction) => {
    if (transaction === failAt) throw new DatabaseUnavailableError("test", "the database went away mid-import");
  });
}

describe.each(TEST_PROVIDERS)("POST /api/conversations/import (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it.each([
    ["openai-request-task-41.json", "openai", 1],
    ["anthropic-task-41.json", "anthropic", 1],
    ["openai-messages-task-41.jsonl", "jsonl", 1],
    ["openai-requests.jsonl", "jsonl", 3],
    ["../tau-bench-airline-sample.json", "tau-bench", 6],
  ])("imports %s as %s, %i conversation(s), with tokens counted", async (fixture, format, count) => {
    const text = readFixture(`import/${fixture}`);
    const { status, body } = await importText(text, `?filename=${encodeURIComponent(fixture.replace("../", ""))}`);
    expect(status).toBe(201);
    expect(body.format).toBe(format);
    expect(body.conversations).toHaveLength(count);
    for (const item of body.conversations) {
      expect(item.conversation.source).toBe(`import:${format}`);
      expect(item.branch.length).toBe(item.messageCount);
      const history = await historyOf(item.branch.id);
      expect(history).toHaveLength(item.messageCount);
      const counter = sharedCounter("o200k_base");
      expect(history.map((record) => record.tokens)).toEqual(history.map((record) => counter.countMessage(record.message)));
    }
    expect(await conversationCount()).toBe(count);
  });

  it("keeps tools and settings defaults, and takes the request's model for counting", async () => {
    const { body } = await importText(readFixture("import/openai-request-task-41.json"));
    const [{ conversation }] = body.conversations;
    expect(conversation.tools.map((tool: { function: { name: string } }) => tool.function.name)).toHaveLength(3);
    expect(conversation.settings).toEqual({ ...DEFAULT_SETTINGS, model: "gpt-4o" });
    const anthropic = await importText(readFixture("import/anthropic-task-41.json"));
    // The same conversation in both dialects stores the same messages.
    const left = await historyOf(body.conversations[0].branch.id);
    const right = await historyOf(anthropic.body.conversations[0].branch.id);
    expect(right.map((record) => record.message)).toEqual(left.map((record) => record.message));
  });

  it("repairs a tool result without its call, reports the repair and stores the repaired history", async () => {
    const { status, body } = await importText(readFixture("import/orphan-tool-result.json"));
    expect(status).toBe(201);
    const [item] = body.conversations;
    expect(item.warnings).toEqual([expect.objectContaining({ code: "orphan-tool-result", messageIndex: 6 })]);
    expect(item.repairs).toEqual([expect.objectContaining({ kind: "orphan-tool-result", index: 6 })]);
    expect(item.messageCount).toBe(14);
    const history = await historyOf(item.branch.id);
    expect(history.map((record) => record.position)).toEqual([...Array(14).keys()]);
    expect(history.some((record) => record.message.tool_call_id === item.repairs[0].toolCallId)).toBe(false);
  });

  it("reports offload markers with the positions their messages were stored at", async () => {
    const { body } = await importText(readFixture("import/exo-offload.json"));
    expect(body.conversations[0].offloadMarkers).toEqual([
      expect.objectContaining({ messageIndex: 7, handle: "5b0e2d7c9a41", engine: "exo", position: 7 }),
      expect.objectContaining({ messageIndex: 9, handle: "c3f1a8e26d05", engine: "exo", position: 9 }),
      expect.objectContaining({ messageIndex: 14, handle: "off_0a1b2c3d4e5f", engine: "context-lab", position: 14 }),
    ]);
  });

  it("imports one conversation of many by index, titled by the query", async () => {
    const text = readFixture("tau-bench-airline-sample.json");
    const { status, body } = await importText(text, "?conversation=2&title=Longest");
    expect(status).toBe(201);
    expect(body.conversations).toHaveLength(1);
    expect(body.conversations[0]).toMatchObject({ messageCount: 62, conversation: { title: "Longest", source: "import:tau-bench" } });
    const all = await importText(text, "?conversation=all&title=Sample");
    expect(all.body.conversations.map((item: { conversation: { title: string } }) => item.conversation.title)).toEqual(
      ["#1", "#2", "#3", "#4", "#5", "#6"].map((suffix) => `Sample ${suffix}`),
    );
    const missing = await importText(text, "?conversation=6");
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues).toEqual([{ path: "conversation", message: expect.stringContaining("holds 6") }]);
  });

  it.each([
    ["malformed-messages.json", [{ path: "messages[7].tool_call_id", line: 42, messageIndex: 7 }]],
    ["malformed-tau-bench.json", [{ path: "[1].traj[7].role", line: 223, messageIndex: 7, conversationIndex: 1 }]],
    ["malformed-missing-comma.json", [{ path: "", line: 15, column: 5 }]],
    [
      "malformed-lines.jsonl",
      [
        { path: "", line: 3, column: 514 },
        { path: "", line: 5, column: 304 },
      ],
    ],
  ])("refuses %s with 400 and located issues, creating nothing", async (fixture, expected) => {
    const { status, body } = await importText(readFixture(`import/${fixture}`));
    expect(status).toBe(400);
    expect(body.error.code).toBe("import_failed");
    expect(body.error.issues.slice(0, expected.length)).toEqual(expected.map((issue) => expect.objectContaining(issue)));
    expect(await conversationCount()).toBe(0);
  });

  it("refuses bad query parameters and an empty body", async () => {
    const format = await importText("[]", "?format=markdown");
    expect(format.status).toBe(400);
    expect(format.body.error.issues[0].path).toBe("format");
    const empty = await importText("");
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("the input is empty");
  });

  it("refuses an oversized body with 413 before parsing it", async () => {
    const declared = await call(importRoute.POST, {
      url: "/api/conversations/import",
      body: "[]",
      headers: { "content-length": String(MAX_IMPORT_BODY_BYTES + 1) },
    });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: "payload_too_large", bytes: MAX_IMPORT_BODY_BYTES + 1, limit: MAX_IMPORT_BODY_BYTES });
    const streamed = await importText("x".repeat(MAX_IMPORT_BODY_BYTES + 1));
    expect(streamed.status).toBe(413);
    expect(streamed.body.error.limit).toBe(MAX_IMPORT_BODY_BYTES);
    expect(await conversationCount()).toBe(0);
  });

  it("refuses more conversations than the cap with 413, creating nothing", async () => {
    const entries = Array.from({ length: MAX_IMPORT_CONVERSATIONS + 1 }, (_, task) => ({ task_id: task, traj: [{ role: "user", content: "hi" }] }));
    const { status, body } = await importText(JSON.stringify(entries));
    expect(status).toBe(413);
    expect(body.error).toMatchObject({ code: "too_many_conversations", count: MAX_IMPORT_CONVERSATIONS + 1, limit: MAX_IMPORT_CONVERSATIONS });
    expect(body.error.message).toContain("?conversation=<n>");
    expect(await conversationCount()).toBe(0);
  });

  it("leaves no conversation behind when a write fails halfway through", async () => {
    useDatabaseForTests(failingDatabase(test.db, 4));
    const { status, body } = await importText(readFixture("tau-bench-airline-sample.json"));
    expect(status).toBe(503);
    expect(body.error.code).toBe("database_unavailable");
    useDatabaseForTests(test.db);
    expect(await conversationCount()).toBe(0);
  });

  it("[RL-ST8] stages long messages about a million characters of text per transaction", async () => {
    const transactionsFor = async (length: number) => {
      let transactions = 0;
      useDatabaseForTests(watchedDatabase(test.db, (count) => void (transactions = count)));
      const text = [0, 1, 2].map((index) => JSON.stringify({ role: index % 2 === 0 ? "user" : "assistant", content: "w ".repeat(length / 2) })).join("\n");
      const { status, body } = await importText(text);
      useDatabaseForTests(test.db);
      expect(status, JSON.stringify(body)).toBe(201);
      expect(body.conversations[0].messageCount).toBe(3);
      return transactions;
    };
    const short = await transactionsFor(10);
    // Three messages of 600,000 characters: one slice each, where short ones share one.
    expect(await transactionsFor(600_000)).toBe(short + 2);
  });

  it("imports all 200 tau-bench trajectories with conversation=all", async () => {
    const { status, body } = await importText(readFileSync(TAU_BENCH_FULL, "utf8"), "?conversation=all&filename=gpt-4o-airline.json");
    expect(status).toBe(201);
    expect(body.conversations).toHaveLength(200);
    expect((await call(conversationsRoute.GET, { url: "/api/conversations?limit=500" })).body.conversations).toHaveLength(200);
  }, 120_000);
});
