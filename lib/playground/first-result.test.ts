import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context";
import { appendMessages, createConversation, getBranchScope, getConversationView, getHistoryByBranchId, updateConversationById, type Database } from "@/lib/db";
import { BUILT_IN_MODELS } from "@/lib/models";
import { recordMessages } from "@/lib/memory/record";
import { loadMemorySnapshot } from "@/lib/request/server";
import { normalizeSettings, resolveSettings } from "@/lib/settings";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { turn } from "@/tests/support/db-fixtures";
import { AIRLINE_TOOLS, memoryConversation, tauBench, turnsOf } from "@/tests/support/memory-fixtures";
import { FIRST_RESULT_LIMIT, firstResult, firstResultBuilds, type FirstResultInput } from "./first-result";
import { fromPageResult } from "./page-result";
import { PipelineHost } from "./pipeline-host";
import type { RunResult } from "./protocol";

/** What the worker shows for the branch: a PipelineHost opening it through the same reads as the API routes. */
async function workerResult(db: Database, branchId: string, settings: Record<string, unknown>): Promise<RunResult> {
  const host = new PipelineHost({
    getBranchMessages: (id) => getHistoryByBranchId(db, id),
    getBranchMemory: async (id) => {
      const scope = await getBranchScope(db, id);
      return loadMemorySnapshot(db, scope, scope.branch.length);
    },
  });
  const resolved = resolveSettings(normalizeSettings(settings).settings);
  const scope = await getBranchScope(db, branchId, { conversation: true });
  await host.open(branchId, scope.conversation!.title, scope.conversation!.tools ?? undefined, resolved.policy.encoding);
  const result = await host.run({ settings: resolved });
  return result;
}

/** The parts of a result that do not depend on where or how fast it ran. */
function comparable(result: RunResult) {
  const { totalMs: _totalMs, origin: _origin, steps, ...rest } = result;
  return { ...rest, steps: steps.map(({ ms: _ms, ...step }) => step) };
}

/** The first result the page carries, unpacked as the workspace unpacks it. */
async function serverResult(db: Database, input: FirstResultInput): Promise<RunResult | null> {
  const first = await firstResult(db, input);
  return first && fromPageResult(first.result);
}

async function opened(db: Database, conversationId: string) {
  const { conversation, scope } = await getConversationView(db, conversationId);
  return { conversation, scope };
}

describe.each(TEST_PROVIDERS)("the workspace's first result, built on the server (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("FR1: equals the worker's first run on a recorded branch with a summary chain", async () => {
    const settings = { mode: "copilot", summaryThreshold: 4 };
    const { conversation } = await memoryConversation(test.db, settings, AIRLINE_TOOLS);
    for (const batch of turnsOf(tauBench(2))) await recordMessages(test.db, (await opened(test.db, conversation.id)).scope.branch.id, batch);
    const page = await opened(test.db, conversation.id);
    expect(page.scope.branch.length).toBeGreaterThan(40);

    const server = await serverResult(test.db, { ...page, catalogue: BUILT_IN_MODELS, shown: page.scope.branch.length });
    const worker = await workerResult(test.db, page.scope.branch.id, settings);
    expect(server?.origin).toBe("server");
    expect(worker.origin).toBeUndefined();
    expect(comparable(server!)).toEqual(comparable(worker));
    // The persisted summary chain is in the request: the run is not trivially the raw history.
    expect(server!.request.summary).not.toBeNull();
  });

  it("FR2: is built once per branch revision and settings; a new turn or new settings build it again", async () => {
    const { conversation, branch } = await createConversation(test.db, {
      title: "kept",
      source: "test",
      messages: tauBench(0).map((message) => turn(message)),
    });
    const input = () => opened(test.db, conversation.id).then((page) => ({ ...page, catalogue: BUILT_IN_MODELS, shown: 40 }));
    const builds = firstResultBuilds();
    const first = await serverResult(test.db, await input());
    const [again, concurrent] = await Promise.all([serverResult(test.db, await input()), serverResult(test.db, await input())]);
    expect(firstResultBuilds() - builds).toBe(1);
    expect(again).toEqual(first);
    expect(concurrent).toEqual(first);

    const next: Message = { role: "user", content: "And what about my return flight?" };
    await appendMessages(test.db, branch.id, [turn(next)]);
    const appended = await serverResult(test.db, await input());
    expect(firstResultBuilds() - builds).toBe(2);
    expect(appended!.history.at(-1)).toEqual(next);

    await updateConversationById(test.db, conversation.id, { settings: { tokenBudget: 2_000 } });
    const budgeted = await serverResult(test.db, await input());
    expect(firstResultBuilds() - builds).toBe(3);
    expect(first!.request.verdict.budget).toBeNull();
    expect(budgeted!.request.verdict.budget).toBe(2_000);
  });

  it("FR3: the page gets marks for the messages it shows and the ones the request keeps, and none past them", async () => {
    const settings = { mode: "copilot", historyRounds: 2 };
    const { conversation } = await createConversation(test.db, {
      title: "marks",
      source: "test",
      settings,
      messages: tauBench(2).map((message) => turn(message)),
    });
    const page = await opened(test.db, conversation.id);
    const whole = await serverResult(test.db, { ...page, catalogue: BUILT_IN_MODELS, shown: page.scope.branch.length });
    const first = await firstResult(test.db, { ...page, catalogue: BUILT_IN_MODELS, shown: 3 });
    const shown = fromPageResult(first!.result);
    // The page's first screen comes with it: the stored records, the very objects the result was built from.
    expect(first!.records.map((record) => record.position)).toEqual([0, 1, 2]);
    expect(first!.records.map((record) => record.message)).toEqual(tauBench(2).slice(0, 3));
    const kept = first!.result.history.filter((message) => first!.records.some((record) => record.message === message));
    expect(kept.length).toBe(whole!.kept.slice(0, 3).filter((at) => at >= 0).length);
    // Sparse on the way: one entry per run of kept messages, one per marked message it shows.
    expect(first!.result.keptRuns.length).toBeLessThan(10);
    expect(first!.result.marksAt.length).toBeLessThan(whole!.marks.length);
    expect(shown!.kept).toEqual(whole!.kept);
    whole!.marks.forEach((marks, index) => {
      const visible = index < 3 || whole!.kept[index] >= 0;
      expect(shown!.marks[index]).toEqual(visible ? marks : []);
    });
    // The round window dropped messages past the first screen: their marks are the ones left out.
    expect(whole!.marks.some((marks, index) => index >= 3 && whole!.kept[index] < 0 && marks.length > 0)).toBe(true);
  });

  it("FR3: a branch longer than the limit is left to the worker, without building anything", async () => {
    const { conversation } = await createConversation(test.db, { title: "long", source: "test", messages: tauBench(44).map((message) => turn(message)) });
    const page = await opened(test.db, conversation.id);
    const builds = firstResultBuilds();
    const result = await firstResult(test.db, {
      ...page,
      scope: { ...page.scope, branch: { ...page.scope.branch, length: FIRST_RESULT_LIMIT + 1 } },
      catalogue: BUILT_IN_MODELS,
      shown: 40,
    });
    expect(result).toBeNull();
    expect(firstResultBuilds()).toBe(builds);
  });

  it("FR4: a history the loader repairs is left to the worker", async () => {
    const orphan: Message = { role: "tool", tool_call_id: "call_missing", content: "a result whose call was never recorded" };
    const { conversation } = await createConversation(test.db, {
      title: "repaired",
      source: "test",
      messages: [{ role: "user", content: "hello" } as Message, orphan, { role: "assistant", content: "hi" } as Message].map((message) => turn(message)),
    });
    const page = await opened(test.db, conversation.id);
    expect(await firstResult(test.db, { ...page, catalogue: BUILT_IN_MODELS, shown: 3 })).toBeNull();
  });
});
