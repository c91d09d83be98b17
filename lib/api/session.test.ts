import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/sessions/[conversationId]/route";
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

  it("[SE1] exports a whole session as one file that imports into a fresh database row for row", async () => {
    const conversationId = await storeSession(source.db);
    const exported = await call(exportRoute.GET, { params: { conversationId } });
    expect(exported.status).toBe(200);
    expect(exported.response.headers.get("content-disposition")).toBe('attachment; filename="Airline-task-0.session.json"');
    const file = exported.body;
    expect(file).toMatchObject({ kind: "context-lab-session", version: 1 });
    expect([
      file.branches.length,
      file.summaries.length,
      file.checkpoints.length,
      file.offloaded.length,
      file.artifacts.length,
      file.exchanges.length,
      file.policies.length,
    ]).toEqual([2, 3, 2, 1, 1, 1, 1]);

    useDatabaseForTests(target.db);
    const imported = await call(importRoute.POST, { body: JSON.stringify(file), headers: { "content-type": "application/json" } });
    expect(imported.status).toBe(201);
    expect(imported.body).toEqual({
      conversationId,
      rows: { branches: 2, messages: sample[0].traj.length, summaries: 3, checkpoints: 2, offloaded: 1, artifacts: 1, exchanges: 1, policies: 1 },
    });
    const before = await rowsOf(source.db, conversationId);
    const after = await rowsOf(target.db, conversationId);
    expect(after).toEqual(before);
    expect(after.messages).toHaveLength(sample[0].traj.length);
    expect(await target.db.policy.count()).toBe(1);

    const again = await call(exportRoute.GET, { params: { conversationId } });
    expect({ ...again.body, exportedAt: null }).toEqual({ ...file, exportedAt: null });
  });

  it("[SE3] refuses a session whose conversation is already stored, writing nothing", async () => {
    const conversationId = await storeSession(source.db);
    const file = (await call(exportRoute.GET, { params: { conversationId } })).body;
    const counted = await source.db.message.count();
    const conflict = await call(importRoute.POST, { body: file });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe("conflict");
    expect(await source.db.message.count()).toBe(counted);
  });

  it("[SE2] refuses a broken file with the path of what is wrong, writing nothing", async () => {
    const conversationId = await storeSession(source.db);
    const file = (await call(exportRoute.GET, { params: { conversationId } })).body;
    useDatabaseForTests(target.db);
    const dangling = structuredClone(file);
    dangling.messages[14].branchId = "nowhere";
    const refused = await call(importRoute.POST, { body: dangling });
    expect(refused.status).toBe(400);
    expect(refused.body.error.issues).toEqual([{ path: "messages[14].branchId", message: "no branch 'nowhere' in the file" }]);
    const badShape = structuredClone(file);
    badShape.checkpoints[0].values = "{not json";
    delete badShape.conversation.title;
    const invalid = await call(importRoute.POST, { body: badShape });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.issues.map((issue: { path: string }) => issue.path).sort()).toEqual(["checkpoints[0].values", "conversation.title"]);
    const notJson = await call(importRoute.POST, { body: '{"kind": "context-lab-session",\n  "version": 1,, }' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.issues[0]).toMatchObject({ line: 2 });
    expect(await target.db.conversation.count()).toBe(0);
  });
});
