// What an import keeps of a session beyond its messages, stored on both databases (IM-10–IM-12, F-SF2, F-SF3).
import { describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import { getCheckpointsByBranchId, getConversationById, getHistoryByBranchId, type MessageRecord } from "@/lib/db";
import { callFactsOf } from "@/lib/formats";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { readFixture } from "@/tests/fixtures/import/load";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { exportSessionText, importSessionText } from "@/tests/support/session-file";

const COMPACTION = "claude-code-2.0.76-compaction.jsonl";
const TASK = "claude-code-2.1.19-task-agent-progress.jsonl";

const importText = (text: string, filename: string) =>
  call(importRoute.POST, { url: `/api/conversations/import?filename=${encodeURIComponent(filename)}`, body: text, headers: { "content-type": "text/plain" } });

function lines(name: string): Record<string, unknown>[] {
  return readFixture(`formats/${name}`)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const text = (entries: readonly Record<string, unknown>[]) => `${entries.map((entry) => JSON.stringify(entry)).join("\n")}\n`;

/** The subagent of the Task file written as Claude Code ≥ 2.1 writes it: its own `subagents/agent-<id>.jsonl`, and the parent without progress lines. */
function splitSubagent(): { parent: string; subagent: string } {
  const all = lines(TASK);
  const isProgress = (entry: Record<string, unknown>) => entry.type === "progress" && (entry.data as { type?: string }).type === "agent_progress";
  const subagent = all.filter(isProgress).map((entry) => {
    const inner = (entry.data as { message: Record<string, unknown>; agentId: string }).message;
    return {
      ...inner,
      isSidechain: true,
      agentId: (entry.data as { agentId: string }).agentId,
      sessionId: entry.sessionId,
      cwd: entry.cwd,
      version: entry.version,
    };
  });
  return { parent: text(all.filter((entry) => !isProgress(entry))), subagent: text(subagent) };
}

const factsOf = (records: readonly MessageRecord[]) => records.map((record) => callFactsOf(record.metadata));

describe.each(TEST_PROVIDERS)("session import (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it("[IM-10][F-SF2][F-SF3] a Claude Code session keeps every message's time and every call's model and usage, and a session export brings them back", async () => {
    const { status, body } = await importText(readFixture(`formats/${COMPACTION}`), COMPACTION);
    expect(status).toBe(201);
    const [{ conversation, branch }] = body.conversations;
    expect(conversation.origin).toMatchObject({ agent: "claude-code", agentVersion: "2.0.76", sessionId: "198393f2-22db-477b-ac77-1825bea883ae" });
    expect(conversation.sessionKey).toBe("claude-code:198393f2-22db-477b-ac77-1825bea883ae");
    const history = await getHistoryByBranchId(test.db, branch.id);
    const facts = factsOf(history);
    expect(facts.every((fact) => fact?.at !== undefined)).toBe(true);
    expect(facts.filter((fact) => fact?.usage !== undefined)).toHaveLength(13);
    expect(facts.filter((fact) => fact?.model === "claude-opus-4-5-20251101")).toHaveLength(12);

    const exported = await exportSessionText(conversation.id);
    expect((await call(conversationRoute.DELETE, { method: "DELETE", params: { id: conversation.id } })).status).toBe(204);
    expect((await importSessionText(exported.text)).status).toBe(201);
    expect(factsOf(await getHistoryByBranchId(test.db, branch.id))).toEqual(facts);
    expect((await getConversationById(test.db, conversation.id)).origin).toEqual(conversation.origin);
  });

  it("[IM-10][F-SF2] a Codex rollout keeps every message's time and every call's usage, and a session export brings them back", async () => {
    const name = "codex-0.104-compacted-window.jsonl";
    const { body } = await importText(readFixture(`formats/${name}`), name);
    const [{ conversation, branch, compactions }] = body.conversations;
    expect(compactions).toBe(1);
    const facts = factsOf(await getHistoryByBranchId(test.db, branch.id));
    expect(facts.every((fact) => fact?.at !== undefined)).toBe(true);
    expect(facts.filter((fact) => fact?.usage !== undefined)).toHaveLength(76);
    const exported = await exportSessionText(conversation.id);
    await call(conversationRoute.DELETE, { method: "DELETE", params: { id: conversation.id } });
    expect((await importSessionText(exported.text)).status).toBe(201);
    expect(factsOf(await getHistoryByBranchId(test.db, branch.id))).toEqual(facts);
    const [checkpoint] = await getCheckpointsByBranchId(test.db, branch.id);
    expect(checkpoint.metadata?.replacement).toSatisfy((replacement: unknown) => Array.isArray(replacement) && replacement.length > 30);
  });

  it("[IM-11] the agent's compaction is a checkpoint at its place, with the summary and the tokens before and after", async () => {
    const { body } = await importText(readFixture(`formats/${COMPACTION}`), COMPACTION);
    const [{ branch, compactions }] = body.conversations;
    expect(compactions).toBe(1);
    const [checkpoint] = await getCheckpointsByBranchId(test.db, branch.id);
    expect(checkpoint.messageCount).toBe(17);
    expect(checkpoint.metadata).toMatchObject({ reason: "agent-compaction", agent: "claude-code", trigger: "auto", tokensBefore: 155250 });
    expect(String(checkpoint.metadata?.summary)).toMatch(/^This session is being continued/);
    const after = Number(checkpoint.metadata?.tokensAfter);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(155250);
  });

  it("[IM-12] a subagent streamed into the session is linked to the Task call that started it", async () => {
    const { body } = await importText(readFixture(`formats/${TASK}`), TASK);
    const [main, subagent] = body.conversations;
    expect(subagent.conversation.parentId).toBe(main.conversation.id);
    expect(subagent.conversation.parentCallId).toBe("toolu_0141a8id8CWHmsbTaZRTD38W");
    expect((await getConversationById(test.db, subagent.conversation.id)).parentCallId).toBe("toolu_0141a8id8CWHmsbTaZRTD38W");
  });

  it("[IM-12] a subagent file imported before its parent is linked when the parent arrives, by the Task call's prompt", async () => {
    const { parent, subagent } = splitSubagent();
    const first = await importText(subagent, "agent-a102bdd.jsonl");
    expect(first.status).toBe(201);
    const [child] = first.body.conversations;
    expect(child.conversation.parentId).toBeNull();
    const second = await importText(parent, `${TASK}`);
    const [main] = second.body.conversations;
    const linked = await getConversationById(test.db, child.conversation.id);
    expect(linked.parentId).toBe(main.conversation.id);
    expect(linked.parentCallId).toBe("toolu_0141a8id8CWHmsbTaZRTD38W");
  });

  it("[F-SF3] importing the same session again appends only what is new, and again appends nothing", async () => {
    const all = lines(COMPACTION);
    const first = await importText(text(all.slice(0, 20)), COMPACTION);
    const [{ conversation, messageCount }] = first.body.conversations;
    const again = await importText(text(all), COMPACTION);
    expect(again.status).toBe(201);
    const [appended] = again.body.conversations;
    expect(appended.conversation.id).toBe(conversation.id);
    expect(appended.appended).toBe(29 - messageCount);
    expect(appended.messageCount).toBe(29);
    const once = await importText(text(all), COMPACTION);
    expect(once.body.conversations[0].appended).toBe(0);
    expect(await test.db.conversation.count()).toBe(1);
  });
});
