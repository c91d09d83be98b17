import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation, user } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import { appendMessages } from "./messages";
import {
  findOffloadedContentOutlineByHandle,
  getOffloadedContentByHandle,
  getOffloadedContentOutlinesByBranchId,
  getOffloadedContentsByBranchId,
  putOffloadedContent,
  type OffloadedContentRecord,
} from "./offloaded";
import { getBranchScope } from "./scope";

const outline = ({ content, ...rest }: OffloadedContentRecord) => rest;

const handle = (n: number) => `off_${n.toString(16).padStart(12, "0")}`;

describe.each(TEST_PROVIDERS)("offloaded content (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("stores content under a handle and resolves it from the branch", async () => {
    const { branch } = await seedConversation(test.db, 4);
    const content = "x".repeat(12_000);
    const stored = await putOffloadedContent(test.db, branch.id, { handle: handle(1), kind: "message", content, position: 1 });
    expect(stored).toMatchObject({ branchId: branch.id, handle: handle(1), kind: "message", position: 1, size: 12_000 });
    expect((await getOffloadedContentByHandle(test.db, branch.id, handle(1))).content).toBe(content);
    // Without a position, content belongs to the next history slot.
    expect((await putOffloadedContent(test.db, branch.id, { handle: handle(2), kind: "tool_result", content: "r" })).position).toBe(4);
    expect((await getOffloadedContentsByBranchId(test.db, branch.id)).map((record) => record.handle)).toEqual([handle(1), handle(2)]);
  });

  it("treats a repeated put of the same content as done and different content under a taken handle as a conflict", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const first = await putOffloadedContent(test.db, branch.id, { handle: handle(1), kind: "message", content: "same", position: 0 });
    expect(await putOffloadedContent(test.db, branch.id, { handle: handle(1), kind: "message", content: "same", position: 0 })).toEqual(first);
    await expect(putOffloadedContent(test.db, branch.id, { handle: handle(1), kind: "message", content: "other" })).rejects.toSatisfy(ConflictError.isInstance);
    await expect(putOffloadedContent(test.db, branch.id, { handle: handle(2), kind: "image" as "message", content: "x" })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
    await expect(putOffloadedContent(test.db, branch.id, { handle: handle(3), kind: "message", content: "x", position: 3 })).rejects.toSatisfy(
      InvalidArgumentError.isInstance,
    );
  });

  it("resolves handles through ancestors up to the fork point only", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    await putOffloadedContent(test.db, main.id, { handle: handle(1), kind: "message", content: "inherited", position: 1 });
    await putOffloadedContent(test.db, main.id, { handle: handle(2), kind: "message", content: "past the fork point", position: 4 });
    const child = await forkBranch(test.db, main.id, { position: 3 });
    await putOffloadedContent(test.db, main.id, { handle: handle(3), kind: "message", content: "written after the fork", position: 2 });
    await putOffloadedContent(test.db, child.id, { handle: handle(4), kind: "tool_result", content: "child's own" });
    await appendMessages(test.db, child.id, [user("tool result, offloaded")]);
    const grandchild = await forkBranch(test.db, child.id, { position: 4 });

    expect((await getOffloadedContentByHandle(test.db, grandchild.id, handle(1))).content).toBe("inherited");
    expect((await getOffloadedContentByHandle(test.db, grandchild.id, handle(4))).branchId).toBe(child.id);
    for (const hidden of [handle(2), handle(3)]) {
      await expect(getOffloadedContentByHandle(test.db, child.id, hidden)).rejects.toSatisfy(NotFoundError.isInstance);
    }
    // A child's content is never visible to its parent.
    await expect(getOffloadedContentByHandle(test.db, main.id, handle(4))).rejects.toSatisfy(NotFoundError.isInstance);
    expect((await getOffloadedContentsByBranchId(test.db, grandchild.id, { inherited: true })).map((record) => record.content)).toEqual([
      "inherited",
      "child's own",
    ]);
    expect(await getOffloadedContentsByBranchId(test.db, grandchild.id)).toEqual([]);
  });

  it("resolves and lists outlines as the content queries do, without the content", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    await putOffloadedContent(test.db, main.id, { handle: handle(1), kind: "message", content: "inherited", position: 1 });
    await putOffloadedContent(test.db, main.id, { handle: handle(2), kind: "message", content: "past the fork point", position: 4 });
    await putOffloadedContent(test.db, main.id, { handle: handle(3), kind: "tool_result", content: "shadowed", position: 0 });
    const child = await forkBranch(test.db, main.id, { position: 3 });
    await putOffloadedContent(test.db, main.id, { handle: handle(4), kind: "message", content: "written after the fork", position: 2 });
    await putOffloadedContent(test.db, child.id, { handle: handle(3), kind: "tool_result", content: "the child's own" });
    const scope = await getBranchScope(test.db, child.id);
    for (const n of [1, 2, 3, 4, 5]) {
      const full = await getOffloadedContentByHandle(test.db, scope, handle(n)).catch(() => null);
      expect(await findOffloadedContentOutlineByHandle(test.db, child.id, handle(n))).toEqual(full && outline(full));
      expect(await findOffloadedContentOutlineByHandle(test.db, scope, handle(n))).toEqual(full && outline(full));
    }
    expect((await findOffloadedContentOutlineByHandle(test.db, scope, handle(3)))?.size).toBe("the child's own".length);
    for (const branch of [main.id, child.id, scope]) {
      for (const inherited of [false, true]) {
        const full = await getOffloadedContentsByBranchId(test.db, typeof branch === "string" ? branch : branch.branch.id, { inherited });
        expect(await getOffloadedContentOutlinesByBranchId(test.db, branch, { inherited })).toEqual(full.map(outline));
      }
    }
    await expect(findOffloadedContentOutlineByHandle(test.db, "missing", handle(1))).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("prefers the branch's own content over an ancestor's under the same handle", async () => {
    const { branch: main } = await seedConversation(test.db, 2);
    await putOffloadedContent(test.db, main.id, { handle: handle(1), kind: "message", content: "parent", position: 0 });
    const child = await forkBranch(test.db, main.id, { position: 2 });
    await putOffloadedContent(test.db, child.id, { handle: handle(1), kind: "message", content: "child", position: 0 });
    expect((await getOffloadedContentByHandle(test.db, child.id, handle(1))).content).toBe("child");
    expect((await getOffloadedContentByHandle(test.db, main.id, handle(1))).content).toBe("parent");
  });
});
