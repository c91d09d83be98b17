import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation } from "@/tests/support/db-fixtures";
import { createArtifact, getArtifactById, getArtifactOutlinesByBranchId, getArtifactsByBranchId, type ArtifactRecord } from "./artifacts";
import { forkBranch } from "./branches";
import { InvalidArgumentError, NotFoundError } from "./errors";
import { getBranchScope } from "./scope";

const outline = ({ content, ...rest }: ArtifactRecord) => rest;

const report = (text: string, position?: number) => ({
  toolCallId: "call_0",
  toolName: "fetch_report",
  content: text.repeat(100),
  summary: `report ${text}`,
  tokens: 120,
  position,
});

describe.each(TEST_PROVIDERS)("artifacts (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("stores an artifact with its retrieval summary and finds it by id", async () => {
    const { branch } = await seedConversation(test.db, 3);
    const artifact = await createArtifact(test.db, branch.id, report("A", 2));
    expect(artifact).toMatchObject({
      branchId: branch.id,
      toolCallId: "call_0",
      toolName: "fetch_report",
      summary: "report A",
      size: 100,
      tokens: 120,
      position: 2,
    });
    expect(await getArtifactById(test.db, branch.id, artifact.id)).toEqual(artifact);
    expect((await createArtifact(test.db, branch.id, report("B"))).position).toBe(3);
    await expect(createArtifact(test.db, branch.id, report("C", 9))).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });

  it("resolves artifacts through ancestors up to the fork point, never downwards or across siblings", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    const inherited = await createArtifact(test.db, main.id, report("inherited", 1));
    const pastFork = await createArtifact(test.db, main.id, report("past the fork", 5));
    const child = await forkBranch(test.db, main.id, { position: 4 });
    const sibling = await forkBranch(test.db, main.id, { position: 4 });
    const afterFork = await createArtifact(test.db, main.id, report("after the fork", 2));
    const own = await createArtifact(test.db, child.id, report("own"));

    expect((await getArtifactById(test.db, child.id, inherited.id)).content).toBe(inherited.content);
    for (const hidden of [pastFork, afterFork]) {
      await expect(getArtifactById(test.db, child.id, hidden.id)).rejects.toSatisfy(NotFoundError.isInstance);
    }
    await expect(getArtifactById(test.db, main.id, own.id)).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getArtifactById(test.db, sibling.id, own.id)).rejects.toSatisfy(NotFoundError.isInstance);
    expect((await getArtifactsByBranchId(test.db, child.id, { inherited: true })).map((artifact) => artifact.id)).toEqual([inherited.id, own.id]);
    expect((await getArtifactsByBranchId(test.db, main.id)).map((artifact) => artifact.id)).toEqual([inherited.id, afterFork.id, pastFork.id]);
  });

  it("lists outlines as the full listing orders them, without the content", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    await createArtifact(test.db, main.id, report("inherited", 3));
    await createArtifact(test.db, main.id, report("earlier", 1));
    await createArtifact(test.db, main.id, report("past the fork", 5));
    const child = await forkBranch(test.db, main.id, { position: 4 });
    await createArtifact(test.db, main.id, report("after the fork", 2));
    await createArtifact(test.db, child.id, report("own"));
    for (const branch of [main.id, child.id]) {
      for (const inherited of [false, true]) {
        const full = await getArtifactsByBranchId(test.db, branch, { inherited });
        expect(full.length).toBeGreaterThan(0);
        expect(await getArtifactOutlinesByBranchId(test.db, branch, { inherited })).toEqual(full.map(outline));
        expect(await getArtifactOutlinesByBranchId(test.db, await getBranchScope(test.db, branch), { inherited })).toEqual(full.map(outline));
      }
    }
    await expect(getArtifactOutlinesByBranchId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });
});
