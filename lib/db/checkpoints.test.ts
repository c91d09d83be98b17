import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import {
  createCheckpoint,
  getCheckpointById,
  getCheckpointOutlinesByBranchId,
  getCheckpointsByBranchId,
  type CheckpointRecord,
  type CreateCheckpointOptions,
} from "./checkpoints";
import { InvalidArgumentError, NotFoundError } from "./errors";
import { getBranchScope } from "./scope";
import { createSummary } from "./summaries";

/** A checkpoint as its outline has it: everything but the payloads. */
const outline = ({ values, tokenUsage, artifactRefs, ...rest }: CheckpointRecord) => rest;

const state = (messageCount: number): CreateCheckpointOptions => ({
  values: { history: [{ role: "user", content: "hi" }], needs_summary: false },
  tokenUsage: { prompt_tokens: 10 * messageCount, completion_tokens: 2, total_tokens: 10 * messageCount + 2 },
  messageCount,
});

describe.each(TEST_PROVIDERS)("checkpoints (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("numbers a branch's checkpoints 1, 2, 3 and stores their state", async () => {
    const { branch } = await seedConversation(test.db, 6);
    const summary = await createSummary(test.db, branch.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 3 });
    const first = await createCheckpoint(test.db, branch.id, {
      ...state(2),
      artifactRefs: ["artifact-1"],
      metadata: { reason: "turn end" },
      summaryId: summary.id,
    });
    const second = await createCheckpoint(test.db, branch.id, state(4));
    const third = await createCheckpoint(test.db, branch.id, state(6));
    expect([first.version, second.version, third.version]).toEqual([1, 2, 3]);
    expect(first).toMatchObject({
      branchId: branch.id,
      values: { history: [{ role: "user", content: "hi" }], needs_summary: false },
      tokenUsage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
      artifactRefs: ["artifact-1"],
      metadata: { reason: "turn end" },
      messageCount: 2,
      summaryId: summary.id,
    });
    expect(second).toMatchObject({ artifactRefs: [], metadata: null, summaryId: null });
    expect(await getCheckpointsByBranchId(test.db, branch.id)).toEqual([first, second, third]);
    expect(await getCheckpointById(test.db, second.id)).toEqual(second);
    expect((await getCheckpointsByBranchId(test.db, branch.id)).find((checkpoint) => checkpoint.version === 3)).toEqual(third);
    expect((await getCheckpointsByBranchId(test.db, branch.id)).find((checkpoint) => checkpoint.version === 4)).toBeUndefined();
  });

  it("numbers versions per branch", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    await createCheckpoint(test.db, main.id, state(2));
    await createCheckpoint(test.db, main.id, state(4));
    const child = await forkBranch(test.db, main.id, { position: 4 });
    expect((await createCheckpoint(test.db, child.id, state(4))).version).toBe(1);
    expect((await createCheckpoint(test.db, main.id, state(4))).version).toBe(3);
  });

  it("hands out distinct, consecutive versions to concurrent savers", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const saved = await Promise.all(Array.from({ length: 20 }, () => createCheckpoint(test.db, branch.id, state(2))));
    expect(saved.map((checkpoint) => checkpoint.version).sort((left, right) => left - right)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it("shows a child the parent's checkpoints taken before the fork that cover only inherited messages", async () => {
    const { branch: main } = await seedConversation(test.db, 8);
    const early = await createCheckpoint(test.db, main.id, state(2));
    const atFork = await createCheckpoint(test.db, main.id, state(4));
    await createCheckpoint(test.db, main.id, state(6)); // covers messages the child does not inherit
    const child = await forkBranch(test.db, main.id, { position: 4 });
    await createCheckpoint(test.db, main.id, state(3)); // written after the fork
    const own = await createCheckpoint(test.db, child.id, state(4));

    expect(await getCheckpointsByBranchId(test.db, child.id)).toEqual([own]);
    expect(await getCheckpointsByBranchId(test.db, child.id, { inherited: true })).toEqual([early, atFork, own]);
    expect((await getCheckpointsByBranchId(test.db, child.id, { inherited: true })).at(-1) ?? null).toEqual(own);
    // The parent never sees the child's checkpoint.
    expect((await getCheckpointsByBranchId(test.db, main.id, { inherited: true })).map((checkpoint) => checkpoint.version)).toEqual([1, 2, 3, 4]);
  });

  it("lists outlines as the full listing orders them, by summary too, without the payloads", async () => {
    const { branch: main } = await seedConversation(test.db, 8);
    const summary = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 2, text: "S1", tokens: 1 });
    await createCheckpoint(test.db, main.id, { ...state(2), summaryId: summary.id, artifactRefs: ["a1"], metadata: { reason: "threshold" } });
    await createCheckpoint(test.db, main.id, state(4));
    await createCheckpoint(test.db, main.id, state(6));
    const child = await forkBranch(test.db, main.id, { position: 4 });
    await createCheckpoint(test.db, main.id, { ...state(3), summaryId: summary.id });
    await createCheckpoint(test.db, await getBranchScope(test.db, child.id), { ...state(4), summaryId: summary.id });
    await createCheckpoint(test.db, child.id, state(3));
    for (const branch of [main.id, child.id]) {
      for (const inherited of [false, true]) {
        const full = await getCheckpointsByBranchId(test.db, branch, { inherited });
        expect(await getCheckpointOutlinesByBranchId(test.db, branch, { inherited })).toEqual(full.map(outline));
        const ofSummary = full.filter((checkpoint) => checkpoint.summaryId === summary.id).map(outline);
        expect(await getCheckpointOutlinesByBranchId(test.db, await getBranchScope(test.db, branch), { inherited, summaryId: summary.id })).toEqual(ofSummary);
      }
    }
    expect(
      (await getCheckpointOutlinesByBranchId(test.db, child.id, { inherited: true, summaryId: summary.id })).map((checkpoint) => [
        checkpoint.branchId,
        checkpoint.version,
      ]),
    ).toEqual([
      [main.id, 1],
      [child.id, 1],
    ]);
    await expect(getCheckpointOutlinesByBranchId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("resumes a fresh child from the nearest ancestor's latest visible checkpoint", async () => {
    const { branch: main } = await seedConversation(test.db, 8);
    const visible = await createCheckpoint(test.db, main.id, state(4));
    await createCheckpoint(test.db, main.id, state(8));
    const child = await forkBranch(test.db, main.id, { position: 5 });
    const grandchild = await forkBranch(test.db, child.id, { position: 5 });
    expect((await getCheckpointsByBranchId(test.db, grandchild.id, { inherited: true })).at(-1) ?? null).toEqual(visible);
    const { branch: empty } = await seedConversation(test.db, 1);
    expect((await getCheckpointsByBranchId(test.db, empty.id, { inherited: true })).at(-1) ?? null).toBeNull();
  });

  it("refuses a messageCount past the history or a summary the branch cannot see, and burns no version", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    const child = await forkBranch(test.db, main.id, { position: 2 });
    const parentOnly = await createSummary(test.db, main.id, { fromPosition: 0, toPosition: 4, text: "S", tokens: 1 });
    await expect(createCheckpoint(test.db, main.id, state(5))).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(createCheckpoint(test.db, child.id, { ...state(2), summaryId: parentOnly.id })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect((await createCheckpoint(test.db, child.id, state(2))).version).toBe(1);
    await expect(createCheckpoint(test.db, "missing", state(0))).rejects.toSatisfy(NotFoundError.isInstance);
  });
});
