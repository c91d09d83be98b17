import { describe, expect, it } from "vitest";
import * as artifactsRoute from "@/app/api/branches/[branchId]/artifacts/route";
import * as checkpointsRoute from "@/app/api/branches/[branchId]/checkpoints/route";
import * as compactRoute from "@/app/api/branches/[branchId]/compact/route";
import * as forkRoute from "@/app/api/branches/[branchId]/fork/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import * as handleRoute from "@/app/api/branches/[branchId]/offloaded/[handle]/route";
import * as offloadedRoute from "@/app/api/branches/[branchId]/offloaded/route";
import * as promptRoute from "@/app/api/branches/[branchId]/prompt/route";
import * as searchRoute from "@/app/api/branches/[branchId]/search/route";
import * as summariesRoute from "@/app/api/branches/[branchId]/summaries/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import type { Message } from "@/lib/context";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

const SYSTEM: Message = { role: "system", content: "You are a travel agent for Context Airlines." };

/** `count` complete rounds about numbered topics: user asks, assistant answers. */
function rounds(count: number): Message[] {
  return Array.from({ length: count }, (_, index) => [
    { role: "user" as const, content: `Question ${index}: tell me about destination${index} and its weather.` },
    { role: "assistant" as const, content: `Destination${index} is sunny; flights leave daily from gate ${index}.` },
  ]).flat();
}

function toolTurn(id: string, result: string): Message[] {
  return [
    { role: "user", content: "Find my booking report." },
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "get_report", arguments: '{"booking":"ABC123"}' } }] },
    { role: "tool", tool_call_id: id, content: result },
    { role: "assistant", content: "Here is your report." },
  ];
}

async function createBranch(messages: Message[], settings: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await call(conversationsRoute.POST, { body: { title: "memory", messages, settings } });
  expect(status).toBe(201);
  return body.branch.id;
}

describe.each(TEST_PROVIDERS)("memory API (%s)", (provider) => {
  useApiTestDatabase(provider);

  it("records a turn, storing a large tool result as an artifact whose content reloads by handle", async () => {
    const branchId = await createBranch([SYSTEM], { summaryThreshold: null });
    const report = `BOOKING REPORT ${"lorem ipsum ".repeat(600)}END`;
    const { status, body } = await call(messagesRoute.POST, { params: { branchId }, body: { messages: toolTurn("call_1", report), expectedLength: 1 } });
    expect(status).toBe(201);
    expect(body.messages.map((record: { position: number }) => record.position)).toEqual([1, 2, 3, 4]);
    expect(body.artifacts).toHaveLength(1);
    expect(body.compaction).toBeNull();
    const pointer = body.messages[2];
    expect(pointer.message.content).toMatch(/\[\[OFFLOADED: handle=off_[0-9a-f]{12}\]\]/);
    const handle = pointer.metadata.handle as string;

    const listed = await call(offloadedRoute.GET, { params: { branchId } });
    expect(listed.body.offloaded).toEqual([expect.objectContaining({ handle, kind: "tool_result", size: report.length, position: 3 })]);
    const reloaded = await call(handleRoute.GET, { params: { branchId, handle } });
    expect(reloaded.status).toBe(200);
    expect(reloaded.body.offloaded).toMatchObject({ handle, content: report });
    const artifacts = await call(artifactsRoute.GET, { params: { branchId } });
    expect(artifacts.body.artifacts).toEqual([expect.objectContaining({ id: body.artifacts[0].id, toolCallId: "call_1", toolName: "get_report" })]);
  });

  it("answers 404 naming the handle and the branch for content the branch cannot see", async () => {
    const branchId = await createBranch([SYSTEM], { summaryThreshold: null });
    const child = (await call(forkRoute.POST, { params: { branchId }, body: { position: 1 } })).body.branch;
    const { body } = await call(messagesRoute.POST, { params: { branchId }, body: { messages: toolTurn("call_1", "x".repeat(8000)) } });
    const handle = body.messages[2].metadata.handle as string;
    for (const [where, id] of [
      ["the child forked before it", child.id],
      ["an unknown handle", branchId],
    ] as const) {
      const asked = where === "an unknown handle" ? "off_ffffffffffff" : handle;
      const missing = await call(handleRoute.GET, { params: { branchId: id, handle: asked } });
      expect(missing.status, where).toBe(404);
      expect(missing.body.error.code).toBe("not_found");
      expect(missing.body.error.message).toContain(asked);
      expect(missing.body.error.message).toContain(id);
    }
  });

  it("answers 409 when expectedLength is stale, 422 when tool pairing would break, 400 for a bad body", async () => {
    const branchId = await createBranch([SYSTEM, ...rounds(1)], { summaryThreshold: null });
    const stale = await call(messagesRoute.POST, { params: { branchId }, body: { messages: [{ role: "user", content: "hi" }], expectedLength: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("conflict");
    expect(stale.body.error.message).toContain("not the expected 1");

    const orphan = await call(messagesRoute.POST, {
      params: { branchId },
      body: {
        messages: [
          { role: "user", content: "hi" },
          { role: "tool", tool_call_id: "call_9", content: "stray" },
        ],
      },
    });
    expect(orphan.status).toBe(422);
    expect(orphan.body.error).toMatchObject({ code: "context_error", issues: [{ path: "messages[1]", messageIndex: 1 }] });

    const empty = await call(messagesRoute.POST, { params: { branchId }, body: { messages: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.issues[0].path).toBe("messages");
    const metadata = await call(messagesRoute.POST, { params: { branchId }, body: { messages: [{ role: "user", content: "hi" }], metadata: [{}, {}] } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error.issues[0].path).toBe("metadata");

    const history = await call(messagesRoute.GET, { params: { branchId } });
    expect(history.body.messages).toHaveLength(3);
    const unknown = await call(messagesRoute.POST, { params: { branchId: "nope" }, body: { messages: [{ role: "user", content: "hi" }] } });
    expect(unknown.status).toBe(404);
  });

  it("compacts on demand: nothing when not due, a summary and checkpoint when forced", async () => {
    const branchId = await createBranch([SYSTEM, ...rounds(6)], { summaryThreshold: null });
    const idle = await call(compactRoute.POST, { params: { branchId } });
    expect(idle.status).toBe(200);
    expect(idle.body).toEqual({ compaction: null });
    const forced = await call(compactRoute.POST, { params: { branchId }, body: { force: true } });
    expect(forced.status).toBe(200);
    const { summary, checkpoint, coveredUntil } = forced.body.compaction;
    expect(summary.branchId).toBe(branchId);
    expect(checkpoint.summaryId).toBe(summary.id);
    expect(coveredUntil).toBe(summary.toPosition);
    expect((await call(checkpointsRoute.GET, { params: { branchId } })).body.checkpoints).toEqual([{ ...checkpoint, inherited: false }]);
    expect((await call(summariesRoute.GET, { params: { branchId } })).body.summaries).toEqual([{ ...summary, inherited: false }]);
    const bad = await call(compactRoute.POST, { params: { branchId }, body: { force: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe("force");
    expect((await call(compactRoute.POST, { params: { branchId: "nope" } })).status).toBe(404);
  });

  it("previews the prompt with GET without writing, and compacts with POST", async () => {
    const branchId = await createBranch([SYSTEM, ...rounds(8)], { summaryThreshold: 6 });
    const preview = await call(promptRoute.GET, { url: "/api/x?userTurn=What%20about%20destination3%3F", params: { branchId } });
    expect(preview.status).toBe(200);
    expect(preview.body.status).toBe("ok");
    expect(preview.body.compaction).toBeNull();
    const kinds = preview.body.sections.map((section: { kind: string }) => section.kind);
    expect(kinds[0]).toBe("system");
    expect(kinds.at(-1)).toBe("current");
    expect(preview.body.messages.at(-1)).toEqual({ role: "user", content: "What about destination3?" });
    const total = preview.body.sections.reduce((sum: number, section: { tokens: number }) => sum + section.tokens, 0);
    expect(total + preview.body.verdict.tokens.priming).toBe(preview.body.verdict.tokens.total);
    expect((await call(checkpointsRoute.GET, { params: { branchId } })).body.checkpoints).toEqual([]);

    const assembled = await call(promptRoute.POST, { params: { branchId }, body: { userTurn: "What about destination3?" } });
    expect(assembled.status).toBe(200);
    expect(assembled.body.status).toBe("compacted");
    expect(assembled.body.sections.map((section: { kind: string }) => section.kind)).toContain("summary");
    expect((await call(checkpointsRoute.GET, { params: { branchId } })).body.checkpoints).toHaveLength(1);
  });

  it("takes settings overrides in POST and reports a budget stop as a result, not an error", async () => {
    const branchId = await createBranch([SYSTEM, ...rounds(3)], { summaryThreshold: null });
    const { status, body } = await call(promptRoute.POST, {
      params: { branchId },
      body: { userTurn: "x ".repeat(200), settings: { tokenBudget: 20 }, compact: false },
    });
    expect(status).toBe(200);
    expect(body.status).toBe("budget_exceeded");
    // E-RB3: the request is refused, and says with its figures what it would have been.
    expect(body.verdict).toMatchObject({ ok: false, limit: 20, limitedBy: "budget", tokens: { total: expect.any(Number) } });
    expect(body.verdict.tokens.total).toBeGreaterThan(20);
    const bad = await call(promptRoute.POST, { params: { branchId }, body: { settings: { tokenBudget: "lots" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe("settings.tokenBudget");
    expect((await call(promptRoute.GET, { params: { branchId: "nope" } })).status).toBe(404);
  });

  it("searches the branch's summaries and artifacts", async () => {
    const branchId = await createBranch([SYSTEM, ...rounds(6)], { summaryThreshold: null });
    await call(compactRoute.POST, { params: { branchId }, body: { force: true } });
    const { status, body } = await call(searchRoute.GET, { url: "/api/x?q=destination1%20weather&limit=2", params: { branchId } });
    expect(status).toBe(200);
    expect(body.hits.length).toBeGreaterThan(0);
    expect(body.hits[0]).toMatchObject({ kind: "summary", branchId, score: expect.any(Number) });
    const missing = await call(searchRoute.GET, { params: { branchId } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues[0].path).toBe("q");
    expect((await call(searchRoute.GET, { url: "/api/x?q=x", params: { branchId: "nope" } })).status).toBe(404);
  });
});
