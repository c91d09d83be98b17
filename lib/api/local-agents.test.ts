import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/local-agents/route";
import * as importRoute from "@/app/api/local-agents/import/route";
import * as dropImportRoute from "@/app/api/conversations/import/route";
import * as followRoute from "@/app/api/local-agents/follow/route";
import * as unfollowRoute from "@/app/api/local-agents/unfollow/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import { getRootBranchByConversationId, type MessageRecord } from "@/lib/db";
import { stopAllFollowing } from "@/lib/local-agents/follow";
import { clearImportsForTests } from "@/lib/local-agents/registry";
import type { LocalAgentsList } from "@/lib/local-agents/types";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { claudeTurn, createAgentHome, lastUuidOf, type AgentHome } from "@/tests/support/agent-home";
import { TEST_PROVIDERS } from "@/tests/support/db";

const saved = { ...process.env };
let home: AgentHome;

beforeEach(() => {
  home = createAgentHome();
  Object.assign(process.env, home.env, { HOST: "127.0.0.1" });
  delete process.env.CONTEXT_LAB_LOCAL_AGENTS;
});
afterEach(() => {
  stopAllFollowing();
  clearImportsForTests();
  process.env = { ...saved };
  home.cleanup();
});

const real = (file: string) => fs.realpathSync(file);
const post = (handler: typeof importRoute.POST, path: string) => call(handler, { body: { path } });

async function historyOf(conversationId: string, db: Parameters<typeof getRootBranchByConversationId>[0]): Promise<MessageRecord[]> {
  const branch = await getRootBranchByConversationId(db, conversationId);
  return (await call(messagesRoute.GET, { params: { branchId: branch.id } })).body.messages;
}

describe.each(TEST_PROVIDERS)("/api/local-agents (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it("[LA2] answers 403 JSON, saying why, when the server listens beyond this machine", async () => {
    process.env.HOST = "0.0.0.0";
    for (const response of [await call(listRoute.GET), await post(importRoute.POST, home.claudeSession), await post(followRoute.POST, home.claudeSession)]) {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject({ code: "forbidden", reason: "not-loopback" });
      expect(response.body.error.message).toContain("0.0.0.0");
    }
    process.env.CONTEXT_LAB_LOCAL_AGENTS = "1";
    expect((await call(listRoute.GET)).status).toBe(200);
  });

  it("[LA1] lists the sessions of every agent with the folders searched", async () => {
    const { status, body } = await call<LocalAgentsList>(listRoute.GET);
    expect(status).toBe(200);
    expect(body.roots.map((root) => [root.agent, root.dir, root.chosenBy])).toEqual([
      ["claude-code", home.claudeDir, "CONTEXT_LAB_CLAUDE_DIR"],
      ["codex", home.codexDir, "CONTEXT_LAB_CODEX_DIR"],
      ["gemini-cli", home.geminiDir, "CONTEXT_LAB_GEMINI_DIR"],
    ]);
    expect(body.sessions.map((session) => session.path).sort()).toEqual(
      [home.claudeSession, home.claudeSubagent, home.codexSession, home.geminiSession].map(real).sort(),
    );
    expect(body.sessions.every((session) => session.conversationId === null && !session.following)).toBe(true);
  });

  it("[LA4] imports a listed session through the import service, and the list then names its conversation", async () => {
    const { status, body } = await post(importRoute.POST, real(home.codexSession));
    expect(status).toBe(201);
    expect(body).toMatchObject({ format: "codex", messageCount: 2 });
    expect(body.conversationIds).toHaveLength(1);
    expect(await historyOf(body.conversationIds[0], test.db)).toHaveLength(2);
    const list = await call<LocalAgentsList>(listRoute.GET);
    expect(list.body.sessions.find((session) => session.path === real(home.codexSession))?.conversationId).toBe(body.conversationIds[0]);
  });

  it("[LA4] knows a session imported any way, also after a restart, by the session id the conversation stores", async () => {
    const text = fs.readFileSync(home.claudeSession, "utf8");
    const dropped = await call(dropImportRoute.POST, {
      url: "/api/conversations/import?filename=session.jsonl",
      body: text,
      headers: { "content-type": "application/x-ndjson" },
    });
    expect(dropped.status).toBe(201);
    clearImportsForTests();
    const list = await call<LocalAgentsList>(listRoute.GET);
    const session = list.body.sessions.find((entry) => entry.path === real(home.claudeSession));
    expect(session?.conversationId).toBe(dropped.body.conversations[0].conversation.id);
    expect(list.body.sessions.find((entry) => entry.path === real(home.codexSession))?.conversationId).toBeNull();
  });

  it("[LA4] reads a file as its agent's format: a Claude Code session of one line is not taken for a JSON document", async () => {
    const [firstPrompt] = fs
      .readFileSync(home.claudeSession, "utf8")
      .split("\n")
      .filter((line) => line.includes('"type":"user"'));
    fs.writeFileSync(home.claudeSession, `${firstPrompt}\n`);
    const { status, body } = await post(importRoute.POST, home.claudeSession);
    expect(status).toBe(201);
    expect(body).toMatchObject({ format: "claude-code", messageCount: 1 });
  });

  it("[LA4] imports a Claude Code subagent's file as a conversation of its own, not into its session's", async () => {
    const main = await post(importRoute.POST, home.claudeSession);
    const before = (await historyOf(main.body.conversationIds[0], test.db)).length;
    const subagent = await post(importRoute.POST, home.claudeSubagent);
    expect(subagent.status).toBe(201);
    expect(subagent.body.conversationIds[0]).not.toBe(main.body.conversationIds[0]);
    expect(await historyOf(main.body.conversationIds[0], test.db)).toHaveLength(before);
    const list = await call<LocalAgentsList>(listRoute.GET);
    expect(list.body.sessions.find((entry) => entry.path === real(home.claudeSubagent))?.conversationId).toBe(subagent.body.conversationIds[0]);
  });

  it("[LA3] refuses paths that are not listed session files: outside the folders 400, a link out 400, gone 404", async () => {
    const outside = `${home.home}/elsewhere.jsonl`;
    fs.copyFileSync(home.claudeSession, outside);
    expect(await post(importRoute.POST, outside)).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
    const link = `${home.claudeDir}/projects/-x/00000000-0000-0000-0000-000000000000.jsonl`;
    fs.mkdirSync(`${home.claudeDir}/projects/-x`);
    fs.symlinkSync(outside, link);
    expect(await post(followRoute.POST, link)).toMatchObject({ status: 400 });
    expect(await post(importRoute.POST, `${home.claudeDir}/settings.json`)).toMatchObject({ status: 400 });
    expect(await post(importRoute.POST, `${home.claudeDir}/projects/-x/missing.jsonl`)).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    expect((await call(importRoute.POST, { body: {} })).status).toBe(400);
  });

  it("[LA5] follows a session: the file's new turns reach the same conversation, and unfollowing stops it", async () => {
    const followed = await post(followRoute.POST, home.claudeSession);
    expect(followed.status).toBe(201);
    const conversationId: string = followed.body.conversationIds[0];
    expect(followed.body.follow).toMatchObject({ path: real(home.claudeSession), conversationId });
    expect((await call(followRoute.GET, { url: `/api/local-agents/follow?conversation=${conversationId}` })).body.follow).toMatchObject({ conversationId });
    const before = (await historyOf(conversationId, test.db)).length;

    const user = claudeTurn({ role: "user", text: "Now run the tests", parentUuid: lastUuidOf(home.claudeSession) });
    const answer = claudeTurn({ role: "assistant", text: "All 12 tests pass.", parentUuid: user.uuid });
    fs.appendFileSync(home.claudeSession, user.line + answer.line.slice(0, 40));
    await expect.poll(async () => (await historyOf(conversationId, test.db)).length, { timeout: 8_000, interval: 200 }).toBe(before + 1);
    fs.appendFileSync(home.claudeSession, answer.line.slice(40));
    await expect.poll(async () => (await historyOf(conversationId, test.db)).length, { timeout: 8_000, interval: 200 }).toBe(before + 2);
    const texts = (await historyOf(conversationId, test.db)).slice(-2).map((record) => JSON.stringify(record.message.content));
    expect(texts[0]).toContain("Now run the tests");
    expect(texts[1]).toContain("All 12 tests pass.");

    const stopped = await call(unfollowRoute.POST, { body: { conversationId } });
    expect(stopped.body.stopped).toHaveLength(1);
    expect((await call(followRoute.GET, { url: `/api/local-agents/follow?conversation=${conversationId}` })).body.follow).toBeNull();
    fs.appendFileSync(home.claudeSession, claudeTurn({ role: "user", text: "ignored", parentUuid: answer.uuid }).line);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(await historyOf(conversationId, test.db)).toHaveLength(before + 2);
  });

  it("[LA5] DELETE /api/local-agents/follow stops a file's follow; a body naming nothing is refused", async () => {
    const followed = await post(followRoute.POST, home.codexSession);
    expect(followed.status).toBe(201);
    expect((await call(followRoute.GET)).body.follows).toHaveLength(1);
    expect((await call(followRoute.DELETE, { method: "DELETE", body: {} })).status).toBe(400);
    const stopped = await call(followRoute.DELETE, { method: "DELETE", body: { path: real(home.codexSession) } });
    expect(stopped.body.stopped.map((follow: { path: string }) => follow.path)).toEqual([real(home.codexSession)]);
    expect((await call(followRoute.GET)).body.follows).toEqual([]);
  });
});
