import { describe, expect, it } from "vitest";
import * as artifactRoute from "@/app/api/branches/[branchId]/artifacts/[artifactId]/route";
import * as artifactsRoute from "@/app/api/branches/[branchId]/artifacts/route";
import * as checkpointsRoute from "@/app/api/branches/[branchId]/checkpoints/route";
import * as forkRoute from "@/app/api/branches/[branchId]/fork/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import * as offloadedRoute from "@/app/api/branches/[branchId]/offloaded/route";
import * as openingRoute from "@/app/api/branches/[branchId]/opening/route";
import * as branchRoute from "@/app/api/branches/[branchId]/route";
import * as summariesRoute from "@/app/api/branches/[branchId]/summaries/route";
import * as checkpointRoute from "@/app/api/checkpoints/[id]/route";
import * as diffRoute from "@/app/api/checkpoints/diff/route";
import * as treeRoute from "@/app/api/conversations/[id]/branches/route";
import { appendMessages, createArtifact, createCheckpoint, createSummary, putOffloadedContent } from "@/lib/db";
import { getLiveBus, type LiveEvent } from "@/lib/live";
import { firstResultBuilds } from "@/lib/playground/first-result";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";
import { seedConversation, user } from "@/tests/support/db-fixtures";

const contents = (records: { message: { content: string | null } }[]) => records.map((record) => record.message.content);

describe.each(TEST_PROVIDERS)("branches API (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it("opens a branch as the workspace page does: its first screen and the server's first result, kept for the next opening", async () => {
    const { conversation, branch: main } = await seedConversation(test.db, 50);
    const { status, body } = await call(openingRoute.GET, { params: { branchId: main.id } });
    expect(status).toBe(200);
    expect(body.branch).toMatchObject({ id: main.id, length: 50 });
    expect(body.conversation.id).toBe(conversation.id);
    expect(body.records.map((record: { position: number }) => record.position)).toEqual(Array.from({ length: 40 }, (_, index) => index));
    expect(body.result).toMatchObject({ origin: "server", messages: 50 });
    expect(body.result.steps[0]).toMatchObject({ processor: "message_offloader", messagesBefore: 50 });
    const builds = firstResultBuilds();
    expect((await call(openingRoute.GET, { params: { branchId: main.id } })).body.result).toEqual(body.result);
    expect(firstResultBuilds()).toBe(builds);
    expect((await call(openingRoute.GET, { params: { branchId: "no-such-branch" } })).status).toBe(404);
  });

  it("gets a branch with its ancestry, and 404 for an unknown one", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    const fork = await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 2, name: "retry" } });
    expect(fork.status).toBe(201);
    expect(fork.body.branch).toMatchObject({ parentId: main.id, forkPosition: 2, length: 2, name: "retry" });
    const { status, body } = await call(branchRoute.GET, { params: { branchId: fork.body.branch.id } });
    expect(status).toBe(200);
    expect(body.branch.id).toBe(fork.body.branch.id);
    expect(body.ancestry.map((entry: { branch: { id: string }; visibleUntil: number | null }) => [entry.branch.id, entry.visibleUntil])).toEqual([
      [main.id, 2],
      [fork.body.branch.id, null],
    ]);
    const missing = await call(branchRoute.GET, { params: { branchId: "nope" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "not_found", resource: "branch", id: "nope" });
  });

  it("reads a history range, refusing a reversed one", async () => {
    const { branch } = await seedConversation(test.db, 6);
    const range = await call(messagesRoute.GET, { url: "/api/x?from=2&to=4", params: { branchId: branch.id } });
    expect(range.status).toBe(200);
    expect(contents(range.body.messages)).toEqual(["u2", "a3"]);
    expect(range.body.messages.map((record: { position: number }) => record.position)).toEqual([2, 3]);
    const reversed = await call(messagesRoute.GET, { url: "/api/x?from=4&to=2", params: { branchId: branch.id } });
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.issues[0].path).toBe("to");
    const missing = await call(messagesRoute.GET, { params: { branchId: "nope" } });
    expect(missing.status).toBe(404);
  });

  it("reads a long history in pages that meet end to end, across a fork, and refuses a page size out of range", async () => {
    const { branch: main } = await seedConversation(test.db, 2_500);
    const fork = await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 1_200 } });
    const child = fork.body.branch.id as string;
    await appendMessages(test.db, child, [user("own 1200")]);
    const read = async (branchId: string, query = "") => {
      const positions: number[] = [];
      const pages: number[] = [];
      let next: number | null = -1;
      while (next !== null) {
        const cursor: string = next < 0 ? "" : `from=${next}`;
        const page = await call(messagesRoute.GET, { url: `/api/x?${[cursor, query].filter(Boolean).join("&")}`, params: { branchId } });
        expect(page.status).toBe(200);
        pages.push(page.body.messages.length);
        positions.push(...page.body.messages.map((record: { position: number }) => record.position));
        next = page.body.next;
      }
      return { positions, pages };
    };
    const whole = await read(main.id);
    expect(whole.pages).toEqual([1_000, 1_000, 500]);
    expect(whole.positions).toEqual(Array.from({ length: 2_500 }, (_, position) => position));
    const small = await read(child, "limit=400");
    expect(small.pages).toEqual([400, 400, 400, 1]);
    expect(small.positions).toEqual(Array.from({ length: 1_201 }, (_, position) => position));
    const bounded = await call(messagesRoute.GET, { url: "/api/x?from=500&to=700&limit=300", params: { branchId: main.id } });
    expect([bounded.body.messages.length, bounded.body.next]).toEqual([200, null]);
    const capped = await call(messagesRoute.GET, { url: "/api/x?from=500&to=700&limit=100", params: { branchId: main.id } });
    expect([capped.body.messages.length, capped.body.next]).toEqual([100, 600]);
    for (const limit of [0, 1_001]) {
      const refused = await call(messagesRoute.GET, { url: `/api/x?limit=${limit}`, params: { branchId: main.id } });
      expect(refused.status).toBe(400);
      expect(refused.body.error.issues[0].path).toBe("limit");
    }
  });

  it("forks in isolation: neither side sees the other's later messages", async () => {
    const { conversation, branch: main } = await seedConversation(test.db, 4);
    const { body } = await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 2 } });
    const child = body.branch;
    expect(child.name).toBe("main@2");
    await appendMessages(test.db, child.id, [user("child only")]);
    await appendMessages(test.db, main.id, [user("main only")]);
    const childHistory = await call(messagesRoute.GET, { params: { branchId: child.id } });
    const mainHistory = await call(messagesRoute.GET, { params: { branchId: main.id } });
    expect(contents(childHistory.body.messages)).toEqual(["u0", "a1", "child only"]);
    expect(contents(mainHistory.body.messages)).toEqual(["u0", "a1", "u2", "a3", "main only"]);
    const tree = await call(treeRoute.GET, { params: { id: conversation.id } });
    expect(tree.body.branches).toEqual([expect.objectContaining({ id: main.id, children: [expect.objectContaining({ id: child.id, children: [] })] })]);
  });

  it("tells open tabs about appended messages and forks through the live bus", async () => {
    const { conversation, branch } = await seedConversation(test.db, 2);
    const events: LiveEvent[] = [];
    const unsubscribe = getLiveBus().subscribe(conversation.id, (event) => events.push(event));
    try {
      const appended = await call(messagesRoute.POST, { params: { branchId: branch.id }, body: { messages: [{ role: "user", content: "live?" }] } });
      expect(appended.status).toBe(201);
      const forked = await call(forkRoute.POST, { params: { branchId: branch.id }, body: { position: 1 } });
      expect(events.map((event) => event.type)).toEqual(["conversation-updated", "branch-created"]);
      expect(events[0]).toMatchObject({ appended: { branchId: branch.id, branchLength: 3, messages: [expect.objectContaining({ position: 2 })] } });
      expect(events[1]).toMatchObject({ branch: { id: forked.body.branch.id, forkPosition: 1 } });
    } finally {
      unsubscribe();
    }
  });

  it("refuses a fork past the history (400 naming position) and a bad body (400 with path)", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const past = await call(forkRoute.POST, { params: { branchId: branch.id }, body: { position: 3 } });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: "invalid_argument", issues: [{ path: "position" }] });
    expect(past.body.error.message).toContain("from 0 to 2");
    const bad = await call(forkRoute.POST, { params: { branchId: branch.id }, body: { position: 1.5, name: "" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((issue: { path: string }) => issue.path)).toEqual(["position", "name"]);
    const missing = await call(forkRoute.POST, { params: { branchId: "nope" }, body: { position: 0 } });
    expect(missing.status).toBe(404);
  });

  it("lists own and inherited checkpoints, each marked, and gets one by id", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    const first = await createCheckpoint(test.db, main.id, { values: { mode: "copilot" }, tokenUsage: { total: 10 }, messageCount: 2 });
    const child = (await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 2 } })).body.branch;
    await createCheckpoint(test.db, main.id, { values: { mode: "pilot" }, tokenUsage: { total: 20 }, messageCount: 4 });
    const own = await createCheckpoint(test.db, child.id, { values: { mode: "navigator" }, tokenUsage: { total: 12 }, messageCount: 2 });
    const { status, body } = await call(checkpointsRoute.GET, { params: { branchId: child.id } });
    expect(status).toBe(200);
    expect(body.checkpoints.map((checkpoint: { id: string; inherited: boolean }) => [checkpoint.id, checkpoint.inherited])).toEqual([
      [first.id, true],
      [own.id, false],
    ]);
    const one = await call(checkpointRoute.GET, { params: { id: own.id } });
    expect(one.body.checkpoint).toEqual(own);
    const missing = await call(checkpointRoute.GET, { params: { id: "nope" } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain("nope");
  });

  it("diffs two checkpoints' values by dotted path, with both headers", async () => {
    const { branch } = await seedConversation(test.db, 4);
    const from = await createCheckpoint(test.db, branch.id, {
      values: { budget: { tokens: 100, limit: 1000 }, todos: ["a"], stale: true },
      tokenUsage: { total: 100 },
      messageCount: 2,
    });
    const to = await createCheckpoint(test.db, branch.id, {
      values: { budget: { tokens: 180, limit: 1000 }, todos: ["a", "b"], fresh: "yes" },
      tokenUsage: { total: 180 },
      messageCount: 4,
    });
    const { status, body } = await call(diffRoute.GET, { url: `/api/checkpoints/diff?from=${from.id}&to=${to.id}` });
    expect(status).toBe(200);
    expect(body.diff).toEqual({
      added: { fresh: "yes" },
      updated: { "budget.tokens": [100, 180], todos: [["a"], ["a", "b"]] },
      removed: { stale: true },
    });
    expect(body.from).toMatchObject({ id: from.id, version: 1, messageCount: 2, tokenUsage: { total: 100 } });
    expect(body.to).toMatchObject({ id: to.id, version: 2 });
    expect(body.from).not.toHaveProperty("values");
    const missingQuery = await call(diffRoute.GET, { url: `/api/checkpoints/diff?from=${from.id}` });
    expect(missingQuery.status).toBe(400);
    expect(missingQuery.body.error.issues[0].path).toBe("to");
    const unknown = await call(diffRoute.GET, { url: `/api/checkpoints/diff?from=${from.id}&to=nope` });
    expect(unknown.status).toBe(404);
  });

  it("lists offloaded content without its text, inherited entries marked", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    await putOffloadedContent(test.db, main.id, { handle: "off_000000000001", kind: "tool_result", content: "x".repeat(300), position: 1 });
    const child = (await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 4 } })).body.branch;
    await putOffloadedContent(test.db, child.id, { handle: "off_000000000002", kind: "message", content: "long message" });
    const { status, body } = await call(offloadedRoute.GET, { params: { branchId: child.id } });
    expect(status).toBe(200);
    expect(body.offloaded).toEqual([
      expect.objectContaining({ handle: "off_000000000001", kind: "tool_result", size: 300, position: 1, inherited: true }),
      expect.objectContaining({ handle: "off_000000000002", kind: "message", size: 12, position: 4, inherited: false }),
    ]);
    expect(body.offloaded[0]).not.toHaveProperty("content");
    expect((await call(offloadedRoute.GET, { params: { branchId: "nope" } })).status).toBe(404);
  });

  it("lists the summary chain and artifacts, and gets an artifact only where it is visible", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    const summary = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 2, text: "they greeted", tokens: 4 });
    const artifact = await createArtifact(test.db, main.id, {
      toolCallId: "call_1",
      toolName: "search",
      content: "big report",
      summary: "a report",
      tokens: 3,
      position: 1,
    });
    const child = (await call(forkRoute.POST, { params: { branchId: main.id }, body: { position: 4 } })).body.branch;
    const later = await createArtifact(test.db, main.id, { content: "after the fork", summary: "later", tokens: 3, position: 5 });
    const summaries = await call(summariesRoute.GET, { params: { branchId: child.id } });
    expect(summaries.body.summaries).toEqual([{ ...summary, inherited: true }]);
    const artifacts = await call(artifactsRoute.GET, { params: { branchId: child.id } });
    expect(artifacts.body.artifacts).toEqual([expect.objectContaining({ id: artifact.id, summary: "a report", inherited: true })]);
    expect(artifacts.body.artifacts[0]).not.toHaveProperty("content");
    const one = await call(artifactRoute.GET, { params: { branchId: child.id, artifactId: artifact.id } });
    expect(one.body.artifact).toEqual(artifact);
    const hidden = await call(artifactRoute.GET, { params: { branchId: child.id, artifactId: later.id } });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toContain(child.id);
  });
});
