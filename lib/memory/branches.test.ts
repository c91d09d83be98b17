import { describe, expect, it } from "vitest";
import {
  forkBranch,
  getArtifactById,
  getArtifactsByBranchId,
  getCheckpointsByBranchId,
  getOffloadedContentsByBranchId,
  getSummaryChainByBranchId,
  NotFoundError,
  type Database,
} from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { assistant, memoryConversation, tauBench, TOPICS, toolCall, toolResult, turnsOf, user } from "@/tests/support/memory-fixtures";
import { prepareNextRequest, promptResponse } from "@/lib/request/server";
import { reloadOffloadedContent } from "./offloaded";
import { recordMessages } from "./record";
import { retrieveRelevant } from "./memory-search";

const QUERY = "Which flights and reservations did we look at, and what about baggage?";

/** The next request of a branch for QUERY, without the processors' timings (the one part that differs run to run). */
async function nextRequestOf(db: Database, branchId: string) {
  const response = promptResponse(await prepareNextRequest(db, branchId, { current: { role: "user", content: QUERY } }));
  return { ...response, steps: response.steps.map(({ ms: _ms, ...step }) => step) };
}

/** Everything a branch's memory consists of, as that branch sees it. */
async function memoryOf(db: Database, branchId: string) {
  return {
    chain: await getSummaryChainByBranchId(db, branchId),
    checkpoints: await getCheckpointsByBranchId(db, branchId, { inherited: true }),
    artifacts: await getArtifactsByBranchId(db, branchId, { inherited: true }),
    offloaded: await getOffloadedContentsByBranchId(db, branchId, { inherited: true }),
    retrieved: await retrieveRelevant(db, branchId, QUERY, { limit: 10 }),
    prompt: JSON.stringify(await nextRequestOf(db, branchId)),
  };
}

/** A child turn: a baggage lookup whose large result becomes the child's own artifact. */
function childTurn(): Parameters<typeof recordMessages>[2] {
  const policy = JSON.stringify({ carry_on: 1, checked: { economy: 1, business: 2 }, extra_bag_fee: 50, max_weight_lbs: 50 }).repeat(30);
  return [
    user("Before we continue: what is my checked baggage allowance on these flights?"),
    toolCall("call_bag", "get_baggage_policy", { cabin: "economy" }),
    toolResult("call_bag", policy),
    assistant("Economy includes one free checked bag of up to 50 pounds; extra bags are 50 dollars each."),
    ...TOPICS.smallTalk.flat(),
  ];
}

describe.each(TEST_PROVIDERS)("branch-scoped memory (%s)", (provider) => {
  const test = useTestDatabase(provider);

  async function parentWithMemory() {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 6, artifactThreshold: 1_000 });
    for (const turn of turnsOf(tauBench(2))) await recordMessages(test.db, branch.id, turn);
    return branch;
  }

  it("[MEM-6] a child reads the parent's memory up to the fork and writes only its own", async () => {
    const parent = await parentWithMemory();
    const parentChain = await getSummaryChainByBranchId(test.db, parent.id);
    const parentArtifacts = await getArtifactsByBranchId(test.db, parent.id);
    expect(parentChain).toHaveLength(2);
    expect(parentArtifacts.length).toBeGreaterThan(0);
    const before = await memoryOf(test.db, parent.id);

    const child = await forkBranch(test.db, parent.id, { position: 62 });
    const inherited = promptResponse(await prepareNextRequest(test.db, child.id, { current: { role: "user", content: QUERY } }));
    expect(inherited.sections.find((section) => section.kind === "summary")?.label).toMatch(/^Checkpoint v2 \(summary of messages 0–6, inherited\)/);
    const [parentContent] = await getOffloadedContentsByBranchId(test.db, parent.id);
    expect(await reloadOffloadedContent(test.db, child.id, parentContent.handle)).toEqual(parentContent);

    const { artifacts, compaction } = await recordMessages(test.db, child.id, childTurn());
    expect(artifacts).toHaveLength(1);
    expect(compaction).not.toBeNull();
    const { summary, checkpoint } = compaction!;
    expect(summary).toMatchObject({ branchId: child.id, extendsId: parentChain[1].id, fromPosition: parentChain[1].toPosition });
    expect(checkpoint).toMatchObject({ branchId: child.id, version: 1, summaryId: summary.id });
    expect(checkpoint.values.branch_id).toBe(child.id);
    expect(checkpoint.artifactRefs).toEqual([...parentArtifacts.map((artifact) => artifact.id), artifacts[0].id]);

    // Resuming the child: its own checkpoint, its recent rounds, retrieval over parent and child memories.
    const resumed = promptResponse(
      await prepareNextRequest(test.db, child.id, { current: { role: "user", content: "How many checked bags were included again?" } }),
    );
    expect(resumed.sections.find((section) => section.kind === "summary")?.label).toMatch(/^Checkpoint v1 \(summary of messages 0–\d+\)/);
    const childRetrieved = await retrieveRelevant(test.db, child.id, "checked baggage allowance", { limit: 10 });
    expect(childRetrieved.map((hit) => hit.id)).toContain(artifacts[0].id);

    // Nothing of the child reaches the parent: its memory and its next request are byte for byte what they were.
    expect(await memoryOf(test.db, parent.id)).toEqual(before);
    const [childContent] = await getOffloadedContentsByBranchId(test.db, child.id);
    await expect(reloadOffloadedContent(test.db, parent.id, childContent.handle)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getArtifactById(test.db, parent.id, artifacts[0].id)).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("[MEM-6] siblings never see each other's compactions", async () => {
    const parent = await parentWithMemory();
    const left = await forkBranch(test.db, parent.id, { position: 62, name: "left" });
    const right = await forkBranch(test.db, parent.id, { position: 62, name: "right" });
    const rightBefore = await memoryOf(test.db, right.id);
    await recordMessages(test.db, left.id, childTurn());
    expect(await memoryOf(test.db, right.id)).toEqual(rightBefore);
  });

  it("[MEM-6] artifacts and the next request survive a restart", async () => {
    const parent = await parentWithMemory();
    const [artifact] = await getArtifactsByBranchId(test.db, parent.id);
    const handles = (await getOffloadedContentsByBranchId(test.db, parent.id)).map((content) => content.handle);
    const prompt = await nextRequestOf(test.db, parent.id);
    // Never two clients on one SQLite file at once: the first is closed before the "restarted" one opens.
    await test.db.$disconnect();
    const restarted = test.current.connect();
    for (const handle of handles) expect((await reloadOffloadedContent(restarted, parent.id, handle)).content.length).toBeGreaterThan(1_000);
    expect((await getArtifactById(restarted, parent.id, artifact.id)).content).toBe(artifact.content);
    expect(await nextRequestOf(restarted, parent.id)).toEqual(prompt);
    await expect(reloadOffloadedContent(restarted, parent.id, "off_000000000000")).rejects.toSatisfy(NotFoundError.isInstance);
  });
});
