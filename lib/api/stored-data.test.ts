import { describe, expect, it } from "vitest";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as exportRoute from "@/app/api/branches/[branchId]/export/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import * as openingRoute from "@/app/api/branches/[branchId]/opening/route";
import * as promptRoute from "@/app/api/branches/[branchId]/prompt/route";
import type { Message } from "@/lib/context";
import { createConversation, getConversationView, type Database } from "@/lib/db";
import { MAX_STORED_JSON_DEPTH } from "@/lib/db/stored-shapes";
import type { SessionFile } from "@/lib/session/schema";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { exportSessionText, importSessionText, sessionLinesOf, sessionText, sessionView } from "@/tests/support/session-file";
import { MAX_JSON_DEPTH } from "./json-input";

// [IN-6] Stored data never breaks a read, and session files are checked as deep as any input.

const HISTORY: Message[] = [
  { role: "system", content: "You book flights." },
  { role: "user", content: "Rebook me." },
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "find", arguments: '{"to":"LIS"}' } }] },
  { role: "tool", content: "found LIS 9:00", tool_call_id: "call_1" },
  { role: "assistant", content: "Done: LIS at 9:00." },
];

function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}"x"${"}".repeat(levels)}`;
}

async function storeHistory(db: Database) {
  return createConversation(db, { title: "damaged", source: "api", messages: HISTORY.map((message) => ({ message, tokens: 5 })) });
}

/** Writes a column of the message at `position` with plain SQL, as a hand edit or an older version would have. */
async function writeColumn(db: Database, provider: string, branchId: string, position: number, column: string, value: string) {
  const [mark, branch, at] = provider === "postgres" ? ["$1", "$2", "$3"] : ["?", "?", "?"];
  await db.$executeRawUnsafe(`UPDATE "Message" SET "${column}" = ${mark} WHERE "branchId" = ${branch} AND "position" = ${at}`, value, branchId, position);
}

describe.each(TEST_PROVIDERS)("stored data that breaks its shape (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it("[IN-6] every read of a branch answers, and shows each damaged row with what was left out", async () => {
    const { conversation, branch } = await storeHistory(test.db);
    await writeColumn(test.db, provider, branch.id, 2, "toolCalls", '"a string"');
    await writeColumn(test.db, provider, branch.id, 1, "metadata", nested(5_000));
    await writeColumn(test.db, provider, branch.id, 4, "extension", '{"parts":[{"type":"image"}]}');
    await writeColumn(test.db, provider, branch.id, 3, "role", "robot");
    await writeColumn(test.db, provider, branch.id, 0, "extension", "not json");
    const params = { branchId: branch.id };

    const messages = await call(messagesRoute.GET, { params });
    expect(messages.status).toBe(200);
    expect(messages.body.messages.map((record: { damaged?: string[] }) => record.damaged)).toEqual([
      ["extension is not JSON text"],
      [`metadata nests deeper than ${MAX_STORED_JSON_DEPTH} levels of arrays and objects`],
      ["toolCalls must be an array of tool calls"],
      ["role 'robot' is not system, user, assistant or tool"],
      ["extension parts: item 0 needs a source of type url, base64, file or text"],
    ]);
    expect(messages.body.messages[2].message).toEqual({ role: "assistant", content: null });
    expect(messages.body.messages[1].metadata).toBeNull();

    for (const format of ["openai", "anthropic", "gemini", "openai-responses"]) {
      const exported = await call(exportRoute.GET, { url: `/x?format=${format}`, params });
      expect(exported.status, format).toBe(200);
      expect(exported.body.text.length, format).toBeGreaterThan(0);
    }
    // The JSONL download streams: read to its end, where a failure would cut it.
    const download = await exportRoute.GET(new Request("http://localhost/x?format=jsonl&download=true"), { params: Promise.resolve(params) });
    expect(download.status).toBe(200);
    expect((await download.text()).trim().split("\n")).toHaveLength(HISTORY.length);
    expect((await call(openingRoute.GET, { params })).status).toBe(200);
    expect((await call(promptRoute.GET, { params })).status).toBe(200);
    expect((await call(promptRoute.POST, { params, body: { userTurn: "and now?", compact: false } })).status).toBe(200);
    const view = await getConversationView(test.db, conversation.id, branch.id);
    expect(view.scope.branch.id).toBe(branch.id);
  });

  it("[IN-6] a conversation whose settings, tools or origin lost their shape reads with them empty, marked damaged", async () => {
    const { conversation, branch } = await storeHistory(test.db);
    const [settings, tools, origin, id] = provider === "postgres" ? ["$1", "$2", "$3", "$4"] : ["?", "?", "?", "?"];
    await test.db.$executeRawUnsafe(
      `UPDATE "Conversation" SET "settings" = ${settings}, "tools" = ${tools}, "origin" = ${origin} WHERE "id" = ${id}`,
      '"fast"',
      '{"name":"find"}',
      nested(200),
      conversation.id,
    );
    const read = await call(conversationRoute.GET, { params: { id: conversation.id } });
    expect(read.status).toBe(200);
    expect(read.body.conversation).toMatchObject({ settings: {}, tools: null, origin: null });
    expect(read.body.conversation.damaged).toEqual([
      "settings must be a JSON object",
      "tools must be an array of tool definitions",
      `origin nests deeper than ${MAX_STORED_JSON_DEPTH} levels of arrays and objects`,
    ]);
    const params = { branchId: branch.id };
    expect((await call(openingRoute.GET, { params })).status).toBe(200);
    expect((await call(promptRoute.GET, { params })).status).toBe(200);
    expect((await call(exportRoute.GET, { url: "/x?format=anthropic", params })).status).toBe(200);
  });
});

describe.each(TEST_PROVIDERS)("session files checked like every input (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  /** The exported file's lines, and a view of them shaped like a version 1 file, which the cases change. */
  async function exported(): Promise<{ lines: any[]; file: SessionFile }> {
    const { conversation } = await storeHistory(test.db);
    const lines = sessionLinesOf((await exportSessionText(conversation.id)).text);
    // Imported into a fresh database: the same ids would be a conflict here.
    await test.db.conversation.deleteMany();
    return { lines, file: sessionView(lines) as SessionFile };
  }

  it("[IN-6] the depth limit is the API's", () => {
    expect(MAX_STORED_JSON_DEPTH).toBe(MAX_JSON_DEPTH);
  });

  it("[IN-6] a sound file still imports", async () => {
    const { status, body } = await importSessionText(sessionText((await exported()).lines));
    expect(status, JSON.stringify(body)).toBe(201);
    expect(body.rows.messages).toBe(HISTORY.length);
  });

  it.each([
    [
      "toolCalls given as a string",
      (file: SessionFile) => void (file.messages[2].toolCalls = '"call it"'),
      "messages[2].toolCalls",
      "must be an array of tool calls",
    ],
    [
      "a tool call without arguments",
      (file: SessionFile) => void (file.messages[2].toolCalls = '[{"id":"c","function":{"name":"f"}}]'),
      "messages[2].toolCalls",
      "item 0 needs function.arguments",
    ],
    ["metadata nested 5,000 deep", (file: SessionFile) => void (file.messages[1].metadata = nested(5_000)), "messages[1].metadata", "nests deeper than 100"],
    ["metadata that is an array", (file: SessionFile) => void (file.messages[1].metadata = "[1]"), "messages[1].metadata", "must be a JSON object"],
    [
      "parts that are not parts",
      (file: SessionFile) => void (file.messages[4].extension = '{"parts":"x"}'),
      "messages[4].extension",
      "parts: must be an array of parts",
    ],
    ["an unknown role", (file: SessionFile) => void (file.messages[3].role = "robot"), "messages[3].role", "role must be"],
    ["tokens of 2^31", (file: SessionFile) => void (file.messages[0].tokens = 2 ** 31), "messages[0].tokens", "must be at most 2147483647"],
    ["a revision of 2^31", (file: SessionFile) => void (file.branches[0].revision = 2 ** 31), "branches[0].revision", "must be at most"],
    ["a date in the year 0", (file: SessionFile) => void (file.conversation.createdAt = "0000-01-01T00:00:00Z"), "conversation.createdAt", "year 1 or later"],
    [
      "a date that is the year 0 in UTC",
      (file: SessionFile) => void (file.branches[0].createdAt = "0001-01-01T00:30:00+01:00"),
      "branches[0].createdAt",
      "year 1 or later",
    ],
    ["settings that are not an object", (file: SessionFile) => void (file.conversation.settings = '"fast"'), "conversation.settings", "must be a JSON object"],
    [
      "tools that are not tool definitions",
      (file: SessionFile) => void (file.conversation.tools = '[{"name":"f"}]'),
      "conversation.tools",
      "item 0 must be a tool definition",
    ],
  ])("[IN-6] refuses %s with 400 and the path, writing nothing", async (_case, mutate, path, message) => {
    const { lines, file } = await exported();
    mutate(file);
    const { status, body } = await importSessionText(sessionText(lines));
    expect(status).toBe(400);
    expect(body.error.issues).toContainEqual(expect.objectContaining({ path, message: expect.stringContaining(message) }));
    expect(await test.db.conversation.count()).toBe(0);
  });

  it("[SE-2] refuses summaries that extend each other in a loop with 400 and the path, writing nothing", async () => {
    const { lines, file } = await exported();
    const summary = (id: string, extendsId: string) => ({
      table: "summaries",
      row: {
        id,
        branchId: file.branches[0].id,
        fromPosition: 0,
        toPosition: 2,
        text: "earlier turns",
        tokens: 3,
        extendsId,
        revision: 0,
        createdAt: "2026-11-29T00:00:00.000Z",
      },
    });
    const end = lines.findIndex((line) => line.table === "end");
    lines.splice(end, 0, summary("s_loop_a", "s_loop_b"), summary("s_loop_b", "s_loop_a"));
    lines[end + 2].rows.summaries += 2;
    const { status, body } = await importSessionText(sessionText(lines));
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.error.issues).toContainEqual(expect.objectContaining({ path: "summaries[0].extendsId", message: expect.stringContaining("extends itself") }));
    expect(await test.db.conversation.count()).toBe(0);
  });

  it("[IN-3] refuses text the database cannot store with 400 and the path, writing nothing", async () => {
    const { lines, file } = await exported();
    file.messages[1].content = "cut \ud83d";
    const surrogate = await importSessionText(sessionText(lines));
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.message).toMatch(/messages\[1\]\.content: holds a lone UTF-16 surrogate/);
    // BD-3: refused on both databases alike, though SQLite could store it.
    file.messages[1].content = "nul \u0000";
    const nul = await importSessionText(sessionText(lines));
    expect(nul.status).toBe(400);
    expect(nul.body.error.message).toMatch(/messages\[1\]\.content: holds the character U\+0000/);
    expect(await test.db.conversation.count()).toBe(0);
  });
});
