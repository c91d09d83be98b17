import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/sessions/route";
import { useDatabaseForTests } from "@/lib/api/database";
import type { Message } from "@/lib/context";
import {
  createArtifact,
  createCheckpoint,
  createConversation,
  createExchange,
  createPolicy,
  createSummary,
  forkBranch,
  putOffloadedContent,
  updateExchangeById,
  type Database,
} from "@/lib/db";
import { policyOfSettings } from "@/lib/policies";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { exportSessionText, importSessionText, rowsOfTable, sessionLinesOf, sessionText, sessionView } from "@/tests/support/session-file";

const sample = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8")) as {
  traj: Message[];
}[];

/** A conversation with a row of every kind: two branches, summaries in a chain, checkpoints, offloaded content, artifacts, proxy calls, policies. */
async function storeSession(db: Database): Promise<string> {
  const messages = sample[0].traj;
  const { conversation, branch } = await createConversation(db, {
    title: "Airline task 0",
    source: "import:tau-bench",
    recordKey: "agent-7",
    settings: { ...DEFAULT_SETTINGS, tokenBudget: 12_000 },
    tools: [{ type: "function", function: { name: "get_reservation_details", parameters: { type: "object", properties: {} } } }],
    messages: messages.map((message, index) => ({ message, tokens: 10 + index, ...(index === 3 ? { metadata: { recorded: true } } : {}) })),
  });
  const first = await createSummary(db, branch.id, { fromPosition: 0, toPosition: 6, text: "The user wants to change a flight.", tokens: 9 });
  const child = await forkBranch(db, branch.id, { position: 12, name: "what if" });
  await createSummary(db, branch.id, { fromPosition: 6, toPosition: 10, text: "Reservation found.", tokens: 4 });
  await createSummary(db, child.id, { fromPosition: 6, toPosition: 12, text: "On the fork: the agent asked for the id.", tokens: 11 });
  await createCheckpoint(db, branch.id, {
    values: { todo: ["rebook"], nested: { a: 1.5 } },
    tokenUsage: { total: 1234 },
    artifactRefs: ["x"],
    metadata: { label: "before rebooking" },
    messageCount: 8,
    summaryId: first.id,
  });
  await createCheckpoint(db, child.id, { values: {}, tokenUsage: { total: 1 }, messageCount: 12 });
  await putOffloadedContent(db, branch.id, { handle: "off_1", kind: "tool_result", content: "x".repeat(3_000), position: 4 });
  await createArtifact(db, child.id, {
    toolCallId: "call_1",
    toolName: "get_reservation_details",
    content: '{"id":"ABC"}',
    summary: "reservation ABC",
    tokens: 7,
    position: 12,
  });
  const exchange = await createExchange(db, branch.id, { request: { model: "gpt-4o", messages: [] }, sent: { model: "gpt-4o" }, streamed: true });
  await updateExchangeById(db, exchange.id, { response: { id: "r1" }, status: 200, durationMs: 321 });
  await createPolicy(db, { conversationId: conversation.id, name: "Tight", policy: { ...policyOfSettings(DEFAULT_SETTINGS), historyRounds: 3 } });
  await createPolicy(db, { name: "Global one", policy: policyOfSettings(DEFAULT_SETTINGS) });
  return conversation.id;
}

/** Every stored row of the conversation, table by table, by id. */
async function rowsOf(db: Database, conversationId: string) {
  const branches = await db.branch.findMany({ where: { conversationId }, orderBy: { id: "asc" } });
  const inBranches = { branchId: { in: branches.map((branch) => branch.id) } };
  return {
    conversation: await db.conversation.findUnique({ where: { id: conversationId } }),
    branches,
    messages: await db.message.findMany({ where: inBranches, orderBy: { id: "asc" } }),
    summaries: await db.summary.findMany({ where: inBranches, orderBy: { id: "asc" } }),
    checkpoints: await db.checkpoint.findMany({ where: inBranches, orderBy: { id: "asc" } }),
    offloaded: await db.offloadedContent.findMany({ where: inBranches, orderBy: { id: "asc" } }),
    artifacts: await db.artifact.findMany({ where: inBranches, orderBy: { id: "asc" } }),
    exchanges: await db.exchange.findMany({ where: { conversationId }, orderBy: { id: "asc" } }),
    policies: await db.policy.findMany({ where: { conversationId }, orderBy: { id: "asc" } }),
  };
}

describe.each(TEST_PROVIDERS)("session export and import (%s)", (provider) => {
  const source = useApiTestDatabase(provider);
  const target = useTestDatabase(provider);

  it("[SE-1] [SE-5] exports a whole session as one file of lines that imports into a fresh database row for row", async () => {
    const conversationId = await storeSession(source.db);
    const exported = await exportSessionText(conversationId);
    expect(exported.status).toBe(200);
    expect(exported.response.headers.get("content-disposition")).toBe('attachment; filename="Airline-task-0.session.jsonl"');
    expect(exported.response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const lines = sessionLinesOf(exported.text);
    expect(lines[0]).toMatchObject({ kind: "context-lab-session", version: 2, requests: "delta" });
    expect(lines[1].table).toBe("conversation");
    const counts = { branches: 2, messages: sample[0].traj.length, summaries: 3, checkpoints: 2, offloaded: 1, artifacts: 1, exchanges: 1, policies: 1 };
    expect(lines.at(-1)).toEqual({ table: "end", rows: counts });
    expect(Object.keys(counts).map((table) => rowsOfTable(lines, table).length)).toEqual(Object.values(counts));

    useDatabaseForTests(target.db);
    const imported = await importSessionText(exported.text);
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({ conversationId, rows: counts });
    const before = await rowsOf(source.db, conversationId);
    const after = await rowsOf(target.db, conversationId);
    expect(after).toEqual(before);
    expect(after.messages).toHaveLength(sample[0].traj.length);
    expect(await target.db.policy.count()).toBe(1);

    const again = await exportSessionText(conversationId);
    expect(again.text.slice(again.text.indexOf("\n"))).toBe(exported.text.slice(exported.text.indexOf("\n")));
  });

  it("[SE-5] still imports a file of version 1, one JSON object with requests whole", async () => {
    const conversationId = await storeSession(source.db);
    const view = sessionView(sessionLinesOf((await exportSessionText(conversationId)).text));
    const exchanges = view.exchanges.map(({ requestBaseId: _request, sentBaseId: _sent, ...exchange }: Record<string, unknown>) => exchange);
    const file = { kind: "context-lab-session", version: 1, exportedAt: new Date().toISOString(), ...view, exchanges };
    useDatabaseForTests(target.db);
    const imported = await call(importRoute.POST, { body: JSON.stringify(file, null, 2), headers: { "content-type": "application/json" } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(await rowsOf(target.db, conversationId)).toEqual(await rowsOf(source.db, conversationId));
  });

  it("[SE-5] leaves request bodies out when asked, and such a file imports with empty requests", async () => {
    const conversationId = await storeSession(source.db);
    const exported = await exportSessionText(conversationId, "?requests=omitted");
    const lines = sessionLinesOf(exported.text);
    expect(lines[0].requests).toBe("omitted");
    expect(rowsOfTable(lines, "exchanges").map((exchange) => [exchange.request, exchange.sent])).toEqual([[null, '{"model":"gpt-4o"}']]);
    useDatabaseForTests(target.db);
    expect((await importSessionText(exported.text)).status).toBe(201);
    expect((await target.db.exchange.findFirstOrThrow()).request).toBe("{}");
    expect((await exportSessionText(conversationId, "?requests=all")).status).toBe(400);
  });

  it("[SE-5] refuses a file cut short, or whose delta names another base, writing nothing", async () => {
    const conversationId = await storeSession(source.db);
    const lines = sessionLinesOf((await exportSessionText(conversationId)).text);
    useDatabaseForTests(target.db);
    const cut = await importSessionText(sessionText(lines.slice(0, -3)));
    expect(cut.status).toBe(400);
    expect(cut.body.error.issues).toEqual([{ path: "end", message: "the file ends before its end line: it was cut short, export it again" }]);
    const wrongBase = structuredClone(lines);
    rowsOfTable(wrongBase, "exchanges")[0].requestBaseId = "elsewhere";
    const refused = await importSessionText(sessionText(wrongBase));
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues[0]).toMatchObject({ path: "exchanges[0].requestBaseId", line: lines.length - 2 });
    expect(await target.db.conversation.count()).toBe(0);
  });

  it("[SE-5] writes each sent body as a delta against its branch's last one, and imports the very text back", async () => {
    const { conversation, branch } = await createConversation(source.db, { title: "Piped", source: "proxy", settings: DEFAULT_SETTINGS });
    const history: { role: string; content: string }[] = [{ role: "system", content: "policy ".repeat(200) }];
    let previous: { id: string; request: unknown } | undefined;
    for (let call = 0; call < 30; call += 1) {
      history.push({ role: "user", content: `question ${call} ${"words ".repeat(50)}` });
      const request = { model: "gpt-4o", messages: structuredClone(history) };
      const exchange = await createExchange(source.db, branch.id, { request, previous, sent: { ...request, max_tokens: 500 } });
      previous = { id: exchange.id, request };
      history.push({ role: "assistant", content: `answer ${call}` });
    }
    const { text } = await exportSessionText(conversation.id);
    const exchanges = rowsOfTable(sessionLinesOf(text), "exchanges");
    expect(exchanges.map((exchange) => exchange.sentBaseId)).toEqual([null, ...exchanges.slice(0, -1).map((exchange) => exchange.id)]);
    expect(Math.max(...exchanges.slice(1).map((exchange) => exchange.sent.length))).toBeLessThan(600);
    useDatabaseForTests(target.db);
    expect((await importSessionText(text)).status).toBe(201);
    const sentOf = async (db: Database) => (await db.exchange.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((row) => row.sent);
    expect(await sentOf(target.db)).toEqual(await sentOf(source.db));
  });

  it("[SE-3] refuses a session whose conversation is already stored, writing nothing", async () => {
    const conversationId = await storeSession(source.db);
    const { text } = await exportSessionText(conversationId);
    const counted = await source.db.message.count();
    const conflict = await importSessionText(text);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("conflict");
    expect(await source.db.message.count()).toBe(counted);
  });

  it("[SE-2] refuses a broken file with the path of what is wrong, writing nothing", async () => {
    const conversationId = await storeSession(source.db);
    const lines = sessionLinesOf((await exportSessionText(conversationId)).text);
    useDatabaseForTests(target.db);
    const dangling = structuredClone(lines);
    sessionView(dangling).messages[14].branchId = "nowhere";
    const refused = await importSessionText(sessionText(dangling));
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues).toEqual([{ path: "messages[14].branchId", message: "no branch 'nowhere' in the file" }]);
    const badShape = structuredClone(lines);
    sessionView(badShape).checkpoints[0].values = "{not json";
    delete sessionView(badShape).conversation.title;
    const invalid = await importSessionText(sessionText(badShape));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["checkpoints[0].values", "conversation.title"]);
    const notJson = await call(importRoute.POST, {
      body: '{"kind": "context-lab-session",\n  "version": 1,, }',
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.issues[0]).toMatchObject({ line: 2 });
    expect(await target.db.conversation.count()).toBe(0);
  });
});
