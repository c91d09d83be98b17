import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/messages";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation, user } from "@/tests/support/db-fixtures";
import {
  forkBranch,
  getAncestryByBranchId,
  getBranchById,
  getBranchesByConversationId,
  getBranchTreeByConversationId,
  getRootBranchByConversationId,
} from "./branches";
import { InvalidArgumentError, NotFoundError } from "./errors";
import { appendMessages, getHistoryByBranchId } from "./messages";
import { branchRevision, getConversationView } from "./scope";
import { countingClient } from "@/tests/support/counting-client";

const contents = (records: { message: Message }[]) => records.map((record) => record.message.content);

describe.each(TEST_PROVIDERS)("branches (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("reads what the workspace opens in one query: the conversation, its tree and the shown branch's scope", async () => {
    const { conversation, branch: main } = await seedConversation(test.db, 4);
    const child = await forkBranch(test.db, main.id, { position: 2, name: "retry" });
    await appendMessages(test.db, child.id, [user("child says")]);
    const { branch: stranger } = await seedConversation(test.db, 1, "other");
    const counted = countingClient(test.db);

    const view = await getConversationView(counted.db, conversation.id, child.id);
    expect(counted.count().operations).toBe(1);
    expect(view.conversation.id).toBe(conversation.id);
    expect(view.tree).toEqual(await getBranchTreeByConversationId(test.db, conversation.id));
    expect(view.scope.branch).toEqual(await getBranchById(test.db, child.id));
    expect(view.scope.lineage.map((entry) => [entry.branch.id, entry.until])).toEqual([
      [main.id, 2],
      [child.id, null],
    ]);
    expect(branchRevision(view.scope)).toBeGreaterThan(0);
    // The scope reads what the branch sees, like one loaded on its own.
    expect((await getHistoryByBranchId(test.db, view.scope)).map((record) => record.message.content)).toEqual(["u0", "a1", "child says"]);

    // No branch, or one of another conversation: the root.
    expect((await getConversationView(test.db, conversation.id)).scope.branch.id).toBe(main.id);
    expect((await getConversationView(test.db, conversation.id, stranger.id)).scope.branch.id).toBe(main.id);
    await expect(getConversationView(test.db, "missing")).rejects.toSatisfy((error) => NotFoundError.isInstance(error));
  });

  it("gives a child the parent's history up to the fork position, then its own messages", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    const child = await forkBranch(test.db, main.id, { position: 2, name: "retry" });
    expect(child).toMatchObject({ parentId: main.id, forkPosition: 2, length: 2, name: "retry", conversationId: main.conversationId });
    const [own] = await appendMessages(test.db, child.id, [user("child says")]);
    // A child's first own message takes position = forkPosition.
    expect(own.position).toBe(2);
    const history = await getHistoryByBranchId(test.db, child.id);
    expect(history.map((record) => [record.position, record.branchId === main.id ? "main" : "child", record.message.content])).toEqual([
      [0, "main", "u0"],
      [1, "main", "a1"],
      [2, "child", "child says"],
    ]);
  });

  it("never shows a child's writes to its parent", async () => {
    const { branch: main } = await seedConversation(test.db, 2);
    const child = await forkBranch(test.db, main.id, { position: 2 });
    await appendMessages(test.db, child.id, [user("only in the child")]);
    expect(contents(await getHistoryByBranchId(test.db, main.id))).toEqual(["u0", "a1"]);
    expect((await getBranchById(test.db, main.id)).length).toBe(2);
  });

  it("never shows a child the parent's writes after the fork", async () => {
    const { branch: main } = await seedConversation(test.db, 2);
    const child = await forkBranch(test.db, main.id, { position: 2 });
    await appendMessages(test.db, main.id, [user("parent moved on")]);
    expect(contents(await getHistoryByBranchId(test.db, child.id))).toEqual(["u0", "a1"]);
    expect(contents(await getHistoryByBranchId(test.db, main.id))).toEqual(["u0", "a1", "parent moved on"]);
  });

  it("narrows inheritance through a chain of forks", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    const child = await forkBranch(test.db, main.id, { position: 4 });
    await appendMessages(test.db, child.id, [user("c4"), user("c5")]);
    // The grandchild forks inside the part the child inherited: it sees main's first 3 only.
    const grandchild = await forkBranch(test.db, child.id, { position: 3 });
    await appendMessages(test.db, grandchild.id, [user("g3")]);
    expect(contents(await getHistoryByBranchId(test.db, grandchild.id))).toEqual(["u0", "a1", "u2", "g3"]);
    const deeper = await forkBranch(test.db, child.id, { position: 6 });
    expect(contents(await getHistoryByBranchId(test.db, deeper.id))).toEqual(["u0", "a1", "u2", "a3", "c4", "c5"]);
  });

  it("accepts fork positions from 0 to the history length and rejects anything else", async () => {
    const { branch: main } = await seedConversation(test.db, 3);
    expect(await getHistoryByBranchId(test.db, (await forkBranch(test.db, main.id, { position: 0 })).id)).toEqual([]);
    expect(await getHistoryByBranchId(test.db, (await forkBranch(test.db, main.id, { position: 3 })).id)).toHaveLength(3);
    for (const position of [-1, 4, 1.5, Number.NaN]) {
      const fork = forkBranch(test.db, main.id, { position });
      await expect(fork).rejects.toSatisfy(InvalidArgumentError.isInstance);
      await expect(fork).rejects.toThrow(/it has 3 messages, so the position must be an integer from 0 to 3/);
    }
    await expect(forkBranch(test.db, "missing", { position: 0 })).rejects.toSatisfy(NotFoundError.isInstance);
    expect(await getBranchesByConversationId(test.db, main.conversationId)).toHaveLength(3);
  });

  it("lists a conversation's branches as a tree", async () => {
    const { branch: main } = await seedConversation(test.db, 4);
    const left = await forkBranch(test.db, main.id, { position: 1, name: "left" });
    const right = await forkBranch(test.db, main.id, { position: 3, name: "right" });
    const leftChild = await forkBranch(test.db, left.id, { position: 1, name: "left-child" });
    const [root, ...others] = await getBranchTreeByConversationId(test.db, main.conversationId);
    expect(others).toEqual([]);
    expect(root.id).toBe(main.id);
    expect(root.children.map((node) => node.name)).toEqual(["left", "right"]);
    expect(root.children[0].children.map((node) => node.id)).toEqual([leftChild.id]);
    expect(root.children[1].children).toEqual([]);
    expect(right.forkPosition).toBe(3);
    expect((await getRootBranchByConversationId(test.db, main.conversationId)).id).toBe(main.id);
    await expect(getBranchTreeByConversationId(test.db, "missing")).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("returns a branch's ancestry root first with what each ancestor passes down", async () => {
    const { branch: main } = await seedConversation(test.db, 6);
    const child = await forkBranch(test.db, main.id, { position: 5 });
    const grandchild = await forkBranch(test.db, child.id, { position: 2 });
    const ancestry = await getAncestryByBranchId(test.db, grandchild.id);
    expect(ancestry.map((entry) => [entry.branch.id, entry.branch.forkPosition, entry.visibleUntil])).toEqual([
      [main.id, null, 2],
      [child.id, 5, 2],
      [grandchild.id, 2, null],
    ]);
    expect(await getAncestryByBranchId(test.db, main.id)).toEqual([{ branch: await getBranchById(test.db, main.id), visibleUntil: null }]);
  });

  it("keeps sibling branches isolated from each other", async () => {
    const { branch: main } = await seedConversation(test.db, 2);
    const first = await forkBranch(test.db, main.id, { position: 2 });
    const second = await forkBranch(test.db, main.id, { position: 2 });
    await appendMessages(test.db, first.id, [user("first")]);
    await appendMessages(test.db, second.id, [user("second")]);
    expect(contents(await getHistoryByBranchId(test.db, first.id))).toEqual(["u0", "a1", "first"]);
    expect(contents(await getHistoryByBranchId(test.db, second.id))).toEqual(["u0", "a1", "second"]);
  });
});
