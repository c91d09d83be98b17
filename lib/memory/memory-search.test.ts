import { describe, expect, it } from "vitest";
import { forkBranch, getSummaryChainByBranchId } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { memoryConversation, topicalBranch, TOPICS, toolCall, toolResult, user } from "@/tests/support/memory-fixtures";
import { compactBranch } from "./compaction";
import { recordMessages } from "./record";
import { retrieveRelevant } from "./memory-search";

describe.each(TEST_PROVIDERS)("retrieveRelevant (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[MEM-7] ranks the summary about the asked topic first", async () => {
    const { branchId, baggage, cancellation } = await topicalBranch(test.db);
    expect([baggage.fromPosition, baggage.toPosition, cancellation.fromPosition, cancellation.toPosition]).toEqual([0, 6, 6, 12]);

    const aboutBags = await retrieveRelevant(test.db, branchId, "How heavy may my checked baggage be, and what do extra bags cost?");
    expect(aboutBags.map((hit) => hit.id)).toEqual([baggage.id, cancellation.id]);
    expect(aboutBags[0]).toEqual({ kind: "summary", id: baggage.id, branchId, text: baggage.text, score: expect.any(Number), positions: [0, 6] });
    expect(aboutBags[0].score).toBeGreaterThan(aboutBags[1].score);

    const aboutCancelling = await retrieveRelevant(test.db, branchId, "Can I still cancel and get my refund?");
    expect(aboutCancelling[0]).toMatchObject({ kind: "summary", id: cancellation.id, positions: [6, 12] });
    expect(await retrieveRelevant(test.db, branchId, "quantum chromodynamics")).toEqual([]);
  });

  it("honours limit and exclude", async () => {
    const { branchId, baggage, cancellation } = await topicalBranch(test.db);
    const query = "checked baggage refund";
    expect(await retrieveRelevant(test.db, branchId, query, { limit: 1 })).toHaveLength(1);
    expect((await retrieveRelevant(test.db, branchId, query, { exclude: [baggage.id] })).map((hit) => hit.id)).toEqual([cancellation.id]);
  });

  it("[MEM-7] searches artifact summaries too, with the tool message's position", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "pilot", artifactThreshold: 200 });
    const flights = JSON.stringify([{ flight_number: "HAT017", origin: "MCO", destination: "BOS", status: "available", prices: { economy: 120 } }]).repeat(3);
    const { artifacts } = await recordMessages(test.db, branch.id, [
      user("Find me a direct flight from Orlando to Boston."),
      toolCall("call_0", "search_direct_flight", { origin: "MCO", destination: "BOS", date: "2024-05-20" }),
      toolResult("call_0", flights),
      ...TOPICS.baggage.flat(),
    ]);
    const hits = await retrieveRelevant(test.db, branch.id, "direct flight MCO to BOS");
    expect(hits[0]).toMatchObject({ kind: "artifact", id: artifacts[0].id, branchId: branch.id, positions: [2, 3], text: artifacts[0].summary });
  });

  it("[MEM-7] sees ancestors' summaries up to the fork and never a child's", async () => {
    const { branchId, baggage, cancellation } = await topicalBranch(test.db);
    // Forked after summary 1 was written, before summary 2 covered these messages: only summary 1 is inherited.
    const child = await forkBranch(test.db, branchId, { position: 8 });
    await recordMessages(test.db, child.id, [user("Actually, can I change my seat instead?"), ...TOPICS.smallTalk.flat(), user("Window seat please.")]);
    const own = (await compactBranch(test.db, child.id, { force: true }))!.summary;
    expect(own.extendsId).toBe(baggage.id);
    const fromChild = await retrieveRelevant(test.db, child.id, "checked baggage cancel refund seat", { limit: 5 });
    expect(fromChild.map((hit) => hit.id).sort()).toEqual([baggage.id, own.id].sort());
    expect(fromChild.find((hit) => hit.id === baggage.id)?.branchId).toBe(branchId);
    const fromParent = await retrieveRelevant(test.db, branchId, "checked baggage cancel refund seat", { limit: 5 });
    expect(fromParent.map((hit) => hit.id).sort()).toEqual([baggage.id, cancellation.id].sort());
    expect((await getSummaryChainByBranchId(test.db, branchId)).map((summary) => summary.id)).toEqual([baggage.id, cancellation.id]);
  });
});
