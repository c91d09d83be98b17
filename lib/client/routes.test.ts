import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as artifactRoute from "@/app/api/branches/[branchId]/artifacts/[artifactId]/route";
import * as artifactsRoute from "@/app/api/branches/[branchId]/artifacts/route";
import * as checkpointsRoute from "@/app/api/branches/[branchId]/checkpoints/route";
import * as compactRoute from "@/app/api/branches/[branchId]/compact/route";
import * as forkRoute from "@/app/api/branches/[branchId]/fork/route";
import * as messagesRoute from "@/app/api/branches/[branchId]/messages/route";
import * as offloadedContentRoute from "@/app/api/branches/[branchId]/offloaded/[handle]/route";
import * as offloadedRoute from "@/app/api/branches/[branchId]/offloaded/route";
import * as openingRoute from "@/app/api/branches/[branchId]/opening/route";
import * as promptRoute from "@/app/api/branches/[branchId]/prompt/route";
import * as branchRoute from "@/app/api/branches/[branchId]/route";
import * as searchRoute from "@/app/api/branches/[branchId]/search/route";
import * as summariesRoute from "@/app/api/branches/[branchId]/summaries/route";
import * as callRoute from "@/app/api/calls/[callId]/route";
import * as callsRoute from "@/app/api/conversations/[id]/calls/route";
import * as checkpointRoute from "@/app/api/checkpoints/[id]/route";
import * as diffRoute from "@/app/api/checkpoints/diff/route";
import * as treeRoute from "@/app/api/conversations/[id]/branches/route";
import * as conversationRoute from "@/app/api/conversations/[id]/route";
import * as importRoute from "@/app/api/conversations/import/route";
import * as conversationsRoute from "@/app/api/conversations/route";
import * as healthRoute from "@/app/api/health/route";
import * as policyRoute from "@/app/api/policies/[id]/route";
import * as policyDiffRoute from "@/app/api/policies/diff/route";
import * as policiesRoute from "@/app/api/policies/route";
import * as sessionExportRoute from "@/app/api/sessions/[conversationId]/route";
import * as sessionsRoute from "@/app/api/sessions/route";
import { policyOfSettings } from "@/lib/policies";
import { DEFAULT_SETTINGS, settingsForMode } from "@/lib/settings";
import { useApiTestDatabase } from "@/tests/api/support";
import { createApiClient } from "./api";
import { ApiError } from "./errors";

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>>;

/** Each route types its own params; the router hands every one a plain record. */
const asRoute = (module: unknown) => module as RouteModule;

// The App Router's file layout as patterns, most specific first.
const ROUTES: [RegExp, string[], RouteModule][] = [
  [/^\/api\/health$/, [], asRoute(healthRoute)],
  [/^\/api\/policies$/, [], asRoute(policiesRoute)],
  [/^\/api\/policies\/diff$/, [], asRoute(policyDiffRoute)],
  [/^\/api\/policies\/([^/]+)$/, ["id"], asRoute(policyRoute)],
  [/^\/api\/sessions$/, [], asRoute(sessionsRoute)],
  [/^\/api\/sessions\/([^/]+)$/, ["conversationId"], asRoute(sessionExportRoute)],
  [/^\/api\/conversations\/import$/, [], asRoute(importRoute)],
  [/^\/api\/conversations$/, [], asRoute(conversationsRoute)],
  [/^\/api\/conversations\/([^/]+)\/branches$/, ["id"], asRoute(treeRoute)],
  [/^\/api\/conversations\/([^/]+)\/calls$/, ["id"], asRoute(callsRoute)],
  [/^\/api\/calls\/([^/]+)$/, ["callId"], asRoute(callRoute)],
  [/^\/api\/conversations\/([^/]+)$/, ["id"], asRoute(conversationRoute)],
  [/^\/api\/checkpoints\/diff$/, [], asRoute(diffRoute)],
  [/^\/api\/checkpoints\/([^/]+)$/, ["id"], asRoute(checkpointRoute)],
  [/^\/api\/branches\/([^/]+)\/artifacts\/([^/]+)$/, ["branchId", "artifactId"], asRoute(artifactRoute)],
  [/^\/api\/branches\/([^/]+)\/offloaded\/([^/]+)$/, ["branchId", "handle"], asRoute(offloadedContentRoute)],
  ...(
    [
      ["artifacts", artifactsRoute],
      ["checkpoints", checkpointsRoute],
      ["compact", compactRoute],
      ["fork", forkRoute],
      ["messages", messagesRoute],
      ["offloaded", offloadedRoute],
      ["opening", openingRoute],
      ["prompt", promptRoute],
      ["search", searchRoute],
      ["summaries", summariesRoute],
    ] as const
  ).map(([name, module]): [RegExp, string[], RouteModule] => [new RegExp(`^/api/branches/([^/]+)/${name}$`), ["branchId"], asRoute(module)]),
  [/^\/api\/branches\/([^/]+)$/, ["branchId"], asRoute(branchRoute)],
];

/** A fetch that hands each request to the route handler Next would run, in process. */
const routerFetch: typeof fetch = async (input, init) => {
  const request = new Request(new URL(String(input), "http://lab.test"), init);
  const { pathname } = new URL(request.url);
  for (const [pattern, names, module] of ROUTES) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const handler = module[request.method as keyof RouteModule];
    if (!handler) return new Response(null, { status: 405 });
    const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
    return handler(request, { params: Promise.resolve(params) });
  }
  return new Response("no route", { status: 404 });
};

const trajectories = fs.readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "tau-bench-airline-sample.json"), "utf8");

describe("the API client against the route handlers (sqlite)", () => {
  useApiTestDatabase("sqlite");
  const client = createApiClient({ fetch: routerFetch });

  it("[PO-5] [SE-1] saves, lists, diffs and deletes policies, and exports a session whose import is a conflict while it is stored", async () => {
    const imported = await client.importConversations(trajectories, { filename: "tau.json", conversation: 0, title: "Trip" });
    const conversationId = imported.conversations[0].conversation.id;
    const a = await client.savePolicy({ name: "Copilot", conversationId, policy: policyOfSettings(DEFAULT_SETTINGS) });
    const b = await client.savePolicy({ name: "Navigator", policy: policyOfSettings(settingsForMode("navigator")) });
    expect((await client.listPolicies(conversationId)).map((entry) => entry.name)).toEqual(["Navigator", "Copilot"]);
    expect((await client.diffPolicies(a.id, b.id)).differences.map((difference) => difference.field)).toEqual([
      "mode",
      "historyRounds",
      "summaryThreshold",
      "offloadThreshold",
    ]);
    expect((await client.updatePolicy(b.id, { name: "Tight" })).name).toBe("Tight");
    await client.deletePolicy(b.id);
    expect((await client.listPolicies()).length).toBe(0);
    const text = await client.exportSession(conversationId);
    const policies = text
      .split("\n")
      .filter((line) => line.includes('"table":"policies"'))
      .map((line) => JSON.parse(line).row.name);
    expect(policies).toEqual(["Copilot"]);
    const conflict = await client.importSession(text).catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(ApiError);
    expect((conflict as ApiError).status).toBe(409);
    await client.deleteConversation(conversationId);
    await expect(client.importSession(text)).resolves.toMatchObject({ conversationId, rows: { policies: 1 } });
    const broken = await client.importSession(`{"kind":\n  oops}`).catch((error: unknown) => error);
    expect((broken as ApiError).issues[0].line).toBe(2);
  });

  it("reads every endpoint's answer in the shape the components use", async () => {
    await expect(client.health()).resolves.toMatchObject({ ok: true, database: "sqlite" });
    const imported = await client.importConversations(trajectories, { filename: "tau.json", conversation: 0, title: "Trip" });
    const [{ conversation, branch: main }] = imported.conversations;
    expect(conversation.title).toBe("Trip");
    expect((await client.listConversations()).conversations.map((item) => item.id)).toEqual([conversation.id]);
    expect((await client.getConversation(conversation.id)).branches[0].id).toBe(main.id);

    const history = await client.getMessages(main.id);
    expect(history.length).toBe(main.length);
    await expect(client.getMessages(main.id, { from: 2, to: 4 })).resolves.toHaveLength(2);
    const opening = await client.openBranch(main.id);
    expect(opening).toMatchObject({ branch: { id: main.id }, conversation: { id: conversation.id }, result: { origin: "server", messages: main.length } });
    expect(opening.records.map((record) => record.message)).toEqual(history.slice(0, 40).map((record) => record.message));

    const first = await client.compactBranch(main.id, { force: true });
    expect(first.compaction?.checkpoint.version).toBe(1);
    const child = await client.forkBranch(main.id, { position: main.length, name: "retry" });
    await client.appendMessages(child.id, {
      messages: [
        { role: "user", content: "Actually, can I get a refund for the cancelled flight instead?" },
        { role: "assistant", content: "Let me check the refund policy for your reservation." },
        { role: "user", content: "Thanks, and please keep the hotel booking." },
        { role: "assistant", content: "Done: the refund is on its way and the hotel stays booked." },
      ],
    });
    const own = await client.compactBranch(child.id, { force: true });
    expect(own.compaction).not.toBeNull();

    const tree = await client.getBranchTree(conversation.id);
    expect(tree[0].children.map((branch) => [branch.name, branch.forkPosition])).toEqual([["retry", main.length]]);
    const detail = await client.getBranch(child.id);
    expect(detail.ancestry.map((entry) => entry.branch.id)).toEqual([main.id, child.id]);

    const checkpoints = await client.listCheckpoints(child.id);
    expect(checkpoints.map((checkpoint) => [checkpoint.branchId, checkpoint.inherited])).toEqual([
      [main.id, true],
      [child.id, false],
    ]);
    expect((await client.getCheckpoint(checkpoints[1].id)).values).toEqual(checkpoints[1].values);
    const diff = await client.diffCheckpoints(checkpoints[0].id, checkpoints[1].id);
    expect(diff.diff.updated.branch_id).toEqual([main.id, child.id]);
    expect(diff.from).not.toHaveProperty("values");

    const summaries = await client.listSummaries(child.id);
    expect(summaries.map((summary) => summary.inherited)).toEqual([true, false]);
    await expect(client.listOffloaded(child.id)).resolves.toEqual(expect.any(Array));
    await expect(client.listArtifacts(child.id)).resolves.toEqual(expect.any(Array));
    const hits = await client.search(child.id, "refund");
    expect(hits.every((hit) => typeof hit.score === "number")).toBe(true);

    const preview = await client.previewPrompt(child.id, { userTurn: "when will the refund arrive?" });
    expect(preview.status).toBe("ok");
    expect(preview.sections.map((section) => section.kind)).toContain("summary");
    const current = preview.sections.at(-1)!;
    expect(current.kind).toBe("current");
    expect(current.indices.map((index) => preview.messages[index])).toEqual([{ role: "user", content: "when will the refund arrive?" }]);
    expect(preview.sections.reduce((sum, section) => sum + section.tokens, 0) + preview.verdict.tokens.priming).toBe(preview.verdict.tokens.total);
    const tight = await client.previewPrompt(child.id, { userTurn: "refund?", settings: { tokenBudget: 1 } });
    expect(tight.status).toBe("budget_exceeded");
    expect(tight.verdict.reason).toMatch(/over the token budget of 1/);
    expect(await client.listCheckpoints(child.id)).toHaveLength(2);

    // An imported conversation made no model calls.
    await expect(client.listCalls(conversation.id, { limit: 10 })).resolves.toEqual({ calls: [], nextCursor: null });

    await client.updateConversation(conversation.id, { title: "Trip 2" });
    await client.deleteConversation(conversation.id);
    expect((await client.listConversations()).conversations).toEqual([]);
  }, 30_000);

  it("turns the API's errors into ApiErrors with their code and issues", async () => {
    const missing = await client.getBranch("nope").catch((error: unknown) => error);
    expect(ApiError.isInstance(missing) && missing.status === 404 && missing.code === "not_found").toBe(true);
    const noCall = await client.getCall("nope").catch((error: unknown) => error);
    expect(noCall).toMatchObject({ status: 404, code: "not_found" });
    const imported = await client.importConversations(trajectories, { conversation: 0 });
    const bad = (await client.forkBranch(imported.conversations[0].branch.id, { position: -1 }).catch((error: unknown) => error)) as ApiError;
    expect(bad).toMatchObject({ status: 400, code: "invalid_request" });
    expect(bad.issues[0].path).toBe("position");
    const broken = (await client.importConversations('[{"role": "user", "content": "hi"},').catch((error: unknown) => error)) as ApiError;
    expect(broken.status).toBe(400);
    expect(broken.issues.length).toBeGreaterThan(0);
  });
});
