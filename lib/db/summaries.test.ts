import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation, user } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import { InvalidArgumentError, NotFoundError } from "./errors";
import { appendMessages } from "./messages";
import { createSummary, getLatestSummaryByBranchId, getSummariesByBranchId, getSummaryChainByBranchId, getSummaryChainLengthByBranchId } from "./summaries";
import { getBranchScope } from "./scope";

const texts = (summaries: { text: string }[]) => summaries.map((summary) => summary.text);

describe.each(TEST_PROVIDERS)("summaries (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("links each new summary to the previous one in the branch", async () => {
    const { branch } = await seedConversation(test.db, 10);
    const first = await createSummary(test.db, branch.id, { fromPosition: 0, toPosition: 4, text: "S1", tokens: 5 });
    const second = await createSummary(test.db, branch.id, { fromPosition: 4, toPosition: 8, text: "S2", tokens: 6 });
    expect(first.extendsId).toBeNull();
    expect(second).toMatchObject({ extendsId: first.id, fromPosition: 4, toPosition: 8, tokens: 6, branchId: branch.id });
    expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([first, second]);
    expect(await getLatestSummaryByBranchId(test.db, branch.id)).toEqual(second);
  });

  it("lets a child inherit the parent's chain up to the fork and extend it with its own links", async () => {
    const { branch: main } = await seedConversation(test.db, 10);
    const s1 = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 4, text: "S1", tokens: 1 });
    const s2 = await createSummary(test.db, main.id, { fromPosition: 4, toPosition: 8, text: "S2", tokens: 1 });
    // Forked at 6: S2 covers messages the child does not inherit, so only S1 is visible.
    const child = await forkBranch(test.db, main.id, { position: 6 });
    expect(await getSummaryChainByBranchId(test.db, child.id)).toEqual([s1]);
    await appendMessages(test.db, child.id, [user("c6"), user("c7")]);
    const c1 = await createSummary(test.db, child.id, { fromPosition: 4, toPosition: 7, text: "C1", tokens: 1 });
    expect(c1.extendsId).toBe(s1.id);
    expect(await getSummaryChainByBranchId(test.db, child.id)).toEqual([s1, c1]);
    expect(await getSummariesByBranchId(test.db, child.id)).toEqual([c1]);
    expect(await getSummariesByBranchId(test.db, child.id, { inherited: true })).toEqual([s1, c1]);
    // The parent never sees the child's link.
    expect(await getSummaryChainByBranchId(test.db, main.id)).toEqual([s1, s2]);
  });

  it("hides summaries a parent writes after the fork, even over inherited messages", async () => {
    const { branch: main } = await seedConversation(test.db, 10);
    const s1 = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 1 });
    const child = await forkBranch(test.db, main.id, { position: 8 });
    await createSummary(test.db, main.id, { fromPosition: 2, toPosition: 6, text: "after the fork", tokens: 1 });
    expect(texts(await getSummaryChainByBranchId(test.db, child.id))).toEqual(["S1"]);
    const c1 = await createSummary(test.db, child.id, { fromPosition: 2, toPosition: 6, text: "C1", tokens: 1 });
    expect(c1.extendsId).toBe(s1.id);
  });

  it("inherits through several generations", async () => {
    const { branch: main } = await seedConversation(test.db, 10);
    await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 1 });
    const child = await forkBranch(test.db, main.id, { position: 6 });
    await createSummary(test.db, child.id, { fromPosition: 2, toPosition: 4, text: "C1", tokens: 1 });
    const grandchild = await forkBranch(test.db, child.id, { position: 5 });
    const g1 = await createSummary(test.db, grandchild.id, { fromPosition: 4, toPosition: 5, text: "G1", tokens: 1 });
    const chain = await getSummaryChainByBranchId(test.db, grandchild.id);
    expect(texts(chain)).toEqual(["S1", "C1", "G1"]);
    expect(chain.map((summary) => summary.extendsId)).toEqual([null, chain[0].id, chain[1].id]);
    expect(g1.branchId).toBe(grandchild.id);
    expect(texts(await getSummaryChainByBranchId(test.db, child.id))).toEqual(["S1", "C1"]);
  });

  it("finds the chain's last link and length without loading the chain, through forks and by scope", async () => {
    const { branch: main } = await seedConversation(test.db, 10);
    const s1 = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 1 });
    const child = await forkBranch(test.db, main.id, { position: 6 });
    const s2 = await createSummary(test.db, main.id, { fromPosition: 2, toPosition: 4, text: "after the fork", tokens: 1 });
    const grandchild = await forkBranch(test.db, child.id, { position: 5 });
    const { branch: bare } = await seedConversation(test.db, 2);
    // A fresh child and grandchild end on the link they inherit, not on one written after the fork.
    for (const branch of [child.id, grandchild.id, await getBranchScope(test.db, grandchild.id)]) {
      expect(await getLatestSummaryByBranchId(test.db, branch)).toEqual(s1);
      expect(await getSummaryChainLengthByBranchId(test.db, branch)).toBe(1);
    }
    const c1 = await createSummary(test.db, child.id, { fromPosition: 2, toPosition: 4, text: "C1", tokens: 1 });
    // Writes take a scope too.
    const c2 = await createSummary(test.db, await getBranchScope(test.db, child.id), { fromPosition: 4, toPosition: 6, text: "C2", tokens: 1 });
    expect(c2).toMatchObject({ branchId: child.id, extendsId: c1.id });
    expect(await getLatestSummaryByBranchId(test.db, child.id)).toEqual(c2);
    expect(await getSummaryChainLengthByBranchId(test.db, child.id)).toBe(3);
    // Written after the first grandchild's fork: not its links.
    expect(await getLatestSummaryByBranchId(test.db, grandchild.id)).toEqual(s1);
    // C2 covers message 5, which a grandchild forked at 5 does not inherit.
    const later = await forkBranch(test.db, child.id, { position: 5 });
    expect(await getLatestSummaryByBranchId(test.db, later.id)).toEqual(c1);
    expect(await getSummaryChainLengthByBranchId(test.db, later.id)).toBe(2);
    expect(await getLatestSummaryByBranchId(test.db, main.id)).toEqual(s2);
    for (const branch of [main.id, child.id, grandchild.id, later.id]) {
      const chain = await getSummaryChainByBranchId(test.db, branch);
      expect(await getLatestSummaryByBranchId(test.db, branch)).toEqual(chain.at(-1));
      expect(await getSummaryChainLengthByBranchId(test.db, branch)).toBe(chain.length);
    }
    expect(await getLatestSummaryByBranchId(test.db, bare.id)).toBeNull();
    expect(await getSummaryChainLengthByBranchId(test.db, bare.id)).toBe(0);
    await expect(getLatestSummaryByBranchId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getSummaryChainLengthByBranchId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("only moves the chain forward, without gaps, inside the history", async () => {
    const { branch } = await seedConversation(test.db, 10);
    await createSummary(test.db, branch.id, { fromPosition: 0, toPosition: 4, text: "S1", tokens: 1 });
    const invalid = [
      { fromPosition: 5, toPosition: 8 }, // gap: messages 4 stays unsummarised
      { fromPosition: 0, toPosition: 3 }, // goes backwards
      { fromPosition: 4, toPosition: 11 }, // past the history
      { fromPosition: 4, toPosition: 4 }, // empty
    ];
    for (const range of invalid) {
      await expect(createSummary(test.db, branch.id, { ...range, text: "x", tokens: 1 })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    }
    // Re-summarising from the start (a cumulative summary) continues the chain.
    const cumulative = await createSummary(test.db, branch.id, { fromPosition: 0, toPosition: 8, text: "S1+S2", tokens: 1 });
    expect(texts(await getSummaryChainByBranchId(test.db, branch.id))).toEqual(["S1", "S1+S2"]);
    expect(cumulative.extendsId).not.toBeNull();
  });

  it("keeps the chain linear under concurrent writers", async () => {
    const { branch } = await seedConversation(test.db, 20);
    await Promise.all(
      Array.from({ length: 10 }, (_, index) => createSummary(test.db, branch.id, { fromPosition: 0, toPosition: 10, text: `S${index}`, tokens: 1 })),
    );
    const chain = await getSummaryChainByBranchId(test.db, branch.id);
    expect(chain).toHaveLength(10);
    expect(chain.map((summary) => summary.extendsId)).toEqual([null, ...chain.slice(0, -1).map((summary) => summary.id)]);
  });

  it("returns null and empty lists for a branch without summaries, NotFoundError for no branch", async () => {
    const { branch } = await seedConversation(test.db, 2);
    expect(await getLatestSummaryByBranchId(test.db, branch.id)).toBeNull();
    expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([]);
    await expect(getSummariesByBranchId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });
});
