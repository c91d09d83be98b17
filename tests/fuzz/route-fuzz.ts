import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createConversationRoute } from "@/app/api/conversations/route";
import { PATCH as updateConversationRoute } from "@/app/api/conversations/[id]/route";
import { POST as importRoute } from "@/app/api/conversations/import/route";
import { POST as appendRoute } from "@/app/api/branches/[branchId]/messages/route";
import { POST as forkRoute } from "@/app/api/branches/[branchId]/fork/route";
import { POST as compactRoute } from "@/app/api/branches/[branchId]/compact/route";
import { POST as promptRoute } from "@/app/api/branches/[branchId]/prompt/route";
import { POST as chatRoute } from "@/app/api/branches/[branchId]/chat/route";
import { PUT as upstreamRoute } from "@/app/api/settings/upstream/route";
import { POST as sessionRoute } from "@/app/api/session/route";
import { resetDatabaseForTests, useDatabaseForTests } from "@/lib/api/database";
import { createConversation } from "@/lib/db";
import { createTestDatabase, TEST_PROVIDERS, type TestDatabase } from "@/tests/support/db";
import { startFakeOpenAI, type FakeOpenAI } from "@/tests/support/fake-openai";
import { bodyText, importText, ROUTE_FIELDS, VALID_BODIES } from "./bodies";

// Every state-changing route handler, in process, with thousands of random bodies each:
// whatever arrives, the answer is a 2xx or a 4xx in the API's JSON error shape, never a 5xx.

/** Bodies per route: 2,000 on SQLite (the CI figure), fewer on PostgreSQL, where each write is a network round trip. */
const RUNS: Record<string, number> = { sqlite: Number(process.env.FUZZ_RUNS ?? 2_000), postgres: Number(process.env.FUZZ_RUNS_POSTGRES ?? 300) };

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Target {
  name: string;
  method: string;
  handler: Handler;
  bodies: fc.Arbitrary<string>;
  contentType?: string;
  params?: () => Record<string, string>;
  query?: string;
}

/** What the fuzz run saw, for docs/RELIABILITY.md. */
const tally: Record<string, { bodies: number; statuses: Record<number, number> }> = {};

async function send(target: Target, text: string): Promise<{ status: number; body: string }> {
  const request = new Request(`http://127.0.0.1/api/fuzz${target.query ?? ""}`, {
    method: target.method,
    body: text,
    headers: { "content-type": target.contentType ?? "application/json" },
  });
  const response = await target.handler(request, { params: Promise.resolve(target.params?.() ?? {}) });
  return { status: response.status, body: await response.text() };
}

describe.each(TEST_PROVIDERS)("fuzz: random bodies on every state-changing route (%s)", (provider) => {
  let database: TestDatabase;
  let upstream: FakeOpenAI;
  let ids = { conversation: "", branch: "" };
  const saved = { ...process.env };

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    useDatabaseForTests(database.db);
    upstream = await startFakeOpenAI();
    process.env.CONTEXT_LAB_UPSTREAM_BASE_URL = upstream.baseUrl;
    process.env.CONTEXT_LAB_UPSTREAM_SETTINGS_FILE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "context-lab-fuzz-")), "upstream.json");
    process.env.CONTEXT_LAB_TOKEN = "fuzz-access-token-0123456789";
    const { conversation, branch } = await createConversation(database.db, { title: "fuzzed", source: "api" });
    ids = { conversation: conversation.id, branch: branch.id };
  });

  afterAll(async () => {
    const mine = Object.fromEntries(Object.entries(tally).filter(([key]) => key.startsWith(`${provider} `)));
    if (process.env.FUZZ_REPORT) fs.appendFileSync(process.env.FUZZ_REPORT, `${JSON.stringify({ provider, tally: mine })}\n`);
    resetDatabaseForTests();
    process.env = saved;
    await upstream?.close();
    await database?.cleanup();
  });

  const branch = () => ({ branchId: ids.branch });
  const targets: Target[] = [
    {
      name: "POST /api/conversations",
      method: "POST",
      handler: createConversationRoute as Handler,
      bodies: bodyText(ROUTE_FIELDS.createConversation, VALID_BODIES.createConversation),
    },
    {
      name: "PATCH /api/conversations/:id",
      method: "PATCH",
      handler: updateConversationRoute as Handler,
      bodies: bodyText(ROUTE_FIELDS.updateConversation),
      params: () => ({ id: ids.conversation }),
    },
    {
      name: "POST /api/conversations/import",
      method: "POST",
      handler: importRoute as Handler,
      bodies: importText,
      contentType: "application/x-ndjson",
      query: "?title=fuzz",
    },
    {
      name: "POST /api/branches/:id/messages",
      method: "POST",
      handler: appendRoute as Handler,
      bodies: bodyText(ROUTE_FIELDS.appendMessages, VALID_BODIES.appendMessages),
      params: branch,
    },
    {
      name: "POST /api/branches/:id/fork",
      method: "POST",
      handler: forkRoute as Handler,
      bodies: bodyText(ROUTE_FIELDS.fork, VALID_BODIES.fork),
      params: branch,
    },
    { name: "POST /api/branches/:id/compact", method: "POST", handler: compactRoute as Handler, bodies: bodyText(ROUTE_FIELDS.compact), params: branch },
    { name: "POST /api/branches/:id/prompt", method: "POST", handler: promptRoute as Handler, bodies: bodyText(ROUTE_FIELDS.prompt), params: branch },
    { name: "POST /api/branches/:id/chat", method: "POST", handler: chatRoute as Handler, bodies: bodyText(ROUTE_FIELDS.chat), params: branch },
    { name: "PUT /api/settings/upstream", method: "PUT", handler: upstreamRoute as Handler, bodies: bodyText(ROUTE_FIELDS.upstream) },
    { name: "POST /api/session", method: "POST", handler: sessionRoute as Handler, bodies: bodyText(ROUTE_FIELDS.session) },
  ];

  it.each(targets)(
    "[F1] $name answers every random body without a 5xx, errors in the JSON shape",
    async (target) => {
      const seen = (tally[`${provider} ${target.name}`] = { bodies: 0, statuses: {} as Record<number, number> });
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(target.bodies, async (text) => {
          const { status, body } = await send(target, text);
          seen.bodies += 1;
          seen.statuses[status] = (seen.statuses[status] ?? 0) + 1;
          if (status >= 500) failures.push(`${status} for ${text.slice(0, 200)}: ${body.slice(0, 300)}`);
          if (status >= 400) {
            const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
            if (typeof parsed.error?.code !== "string" || typeof parsed.error?.message !== "string")
              failures.push(`${status} without the error shape: ${body.slice(0, 200)}`);
          }
          return true;
        }),
        { numRuns: RUNS[provider], seed: 20_261_123, endOnFailure: true },
      );
      expect(failures.slice(0, 5)).toEqual([]);
      expect(seen.bodies).toBe(RUNS[provider]);
    },
    600_000,
  );
});
