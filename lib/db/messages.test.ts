import { describe, expect, it } from "vitest";
import { isFinalAnswer, splitRounds, type Message } from "@/lib/context/messages";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { dialogue, seedConversation, turn, user } from "@/tests/support/db-fixtures";
import { forkBranch } from "./branches";
import { getConversationById, getConversations } from "./conversations";
import { ConflictError, InvalidArgumentError, NotFoundError } from "./errors";
import { appendMessages, getHistoryByBranchId, getHistoryTotalsByBranchId } from "./messages";
import { getBranchScope } from "./scope";

const contents = (records: { message: Message }[]) => records.map((record) => record.message.content);

describe.each(TEST_PROVIDERS)("messages (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("appends after the existing history and returns the stored records", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const appended = await appendMessages(test.db, branch.id, dialogue(2, 2));
    expect(appended.map((record) => record.position)).toEqual([2, 3]);
    expect(appended.every((record) => record.branchId === branch.id)).toBe(true);
    expect(contents(await getHistoryByBranchId(test.db, branch.id))).toEqual(["u0", "a1", "u2", "a3"]);
  });

  it("round-trips the OpenAI message shape, omitting absent optional fields", async () => {
    const toolCall = { id: "call_0", type: "function" as const, function: { name: "search", arguments: '{"q":"x"}' } };
    const messages: Message[] = [
      { role: "system", content: "be brief" },
      { role: "user", content: "find x", name: "alice" },
      { role: "assistant", content: null, tool_calls: [toolCall] },
      { role: "tool", content: "found", tool_call_id: "call_0" },
      { role: "assistant", content: "x is here" },
    ];
    const { branch } = await seedConversation(test.db, 0);
    await appendMessages(test.db, branch.id, [
      turn(messages[0], { recordedAt: "request-1", pipeline: ["round-window"] }),
      ...messages.slice(1).map((message) => turn(message)),
    ]);
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history.map((record) => record.message)).toStrictEqual(messages);
    expect(history[0].metadata).toEqual({ recordedAt: "request-1", pipeline: ["round-window"] });
    expect(history[1].metadata).toBeNull();
    expect(history[0].tokens).toBeGreaterThan(0);
    expect(new Date(history[0].createdAt).toISOString()).toBe(history[0].createdAt);
  });

  it("round-trips parts, cache marks, provider extras and the engine mark; a plain message stores none", async () => {
    const messages: Message[] = [
      { role: "system", content: "policy", cache_control: { type: "ephemeral" }, extras: { openai: { role: "developer" } } },
      {
        role: "user",
        content: "look",
        parts: [
          { type: "text", text: "look" },
          { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" }, detail: "low" },
        ],
      },
      {
        role: "assistant",
        content: "ok",
        parts: [
          { type: "reasoning", text: "hmm", signature: "sig" },
          { type: "text", text: "ok" },
        ],
      },
      { role: "system", content: "[Conversation Summary] ...", engine: { kind: "conversation-summary" } },
      { role: "user", content: "plain" },
    ];
    const { branch } = await seedConversation(test.db, 0);
    await appendMessages(
      test.db,
      branch.id,
      messages.map((message) => turn(message)),
    );
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history.map((record) => record.message)).toStrictEqual(messages);
    const rows = await test.db.message.findMany({ where: { branchId: branch.id }, orderBy: { position: "asc" }, select: { extension: true } });
    expect(rows.at(-1)?.extension).toBeNull();
  });

  it("keeps every one of 50 concurrent appends, in one consistent order, with no duplicate or missing position", async () => {
    const { branch } = await seedConversation(test.db, 1);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, writer) => appendMessages(test.db, branch.id, [user(`w${writer}-first`), user(`w${writer}-second`)])),
    );
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history.map((record) => record.position)).toEqual(Array.from({ length: 101 }, (_, position) => position));
    expect(new Set(contents(history)).size).toBe(101);
    for (const [writer, records] of results.entries()) {
      // Each append lands as one contiguous block, in the order it was given.
      expect(contents(records)).toEqual([`w${writer}-first`, `w${writer}-second`]);
      expect(records[1].position).toBe(records[0].position + 1);
      expect(contents(history.slice(records[0].position, records[0].position + 2))).toEqual(contents(records));
    }
  });

  it("rejects an optimistic append when the branch moved, and writes nothing", async () => {
    const { branch } = await seedConversation(test.db, 2);
    await appendMessages(test.db, branch.id, [user("u2")], { expectedLength: 2 });
    const stale = appendMessages(test.db, branch.id, [user("stale")], { expectedLength: 2 });
    await expect(stale).rejects.toSatisfy(ConflictError.isInstance);
    await expect(stale).rejects.toThrow(/has 3 messages, not the expected 2/);
    expect(contents(await getHistoryByBranchId(test.db, branch.id))).toEqual(["u0", "a1", "u2"]);
  });

  it("lets exactly one of two racing optimistic appends win", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const outcomes = await Promise.allSettled([
      appendMessages(test.db, branch.id, [user("left")], { expectedLength: 2 }),
      appendMessages(test.db, branch.id, [user("right")], { expectedLength: 2 }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    const rejected = outcomes.find((outcome) => outcome.status === "rejected");
    expect(ConflictError.isInstance(rejected?.reason)).toBe(true);
    expect(await getHistoryByBranchId(test.db, branch.id)).toHaveLength(3);
  });

  it("rolls back a whole batch when one message in it is invalid", async () => {
    const { branch } = await seedConversation(test.db, 2);
    const bad = { message: { role: "robot", content: "beep" } as unknown as Message, tokens: 1 };
    await expect(appendMessages(test.db, branch.id, [user("fine"), bad])).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(contents(await getHistoryByBranchId(test.db, branch.id))).toEqual(["u0", "a1"]);
    // The branch's length counter was rolled back too: the next append takes position 2.
    expect((await appendMessages(test.db, branch.id, [user("next")]))[0].position).toBe(2);
  });

  it("reads a slice of the full history across the fork point", async () => {
    const { branch } = await seedConversation(test.db, 4);
    const child = await forkBranch(test.db, branch.id, { position: 3 });
    await appendMessages(test.db, child.id, [user("c3"), user("c4")]);
    const slice = await getHistoryByBranchId(test.db, child.id, { fromPosition: 2, toPosition: 4 });
    expect(slice.map((record) => [record.position, record.branchId, record.message.content])).toEqual([
      [2, branch.id, "u2"],
      [3, child.id, "c3"],
    ]);
    expect(contents(await getHistoryByBranchId(test.db, child.id, { positions: [1] }))).toEqual(["a1"]);
    expect(await getHistoryByBranchId(test.db, child.id, { positions: [9] })).toEqual([]);
  });

  it("selects parts of the history by role, position and the last n, across the fork point, by id or scope", async () => {
    const { branch } = await seedConversation(test.db, 6);
    const child = await forkBranch(test.db, branch.id, { position: 4 });
    await appendMessages(test.db, child.id, [user("c4"), turn({ role: "assistant", content: "c5" }), user("c6")]);
    const scope = await getBranchScope(test.db, child.id);
    expect(scope.branch).toMatchObject({ id: child.id, parentId: branch.id, forkPosition: 4, length: 7 });
    expect(scope.conversation).toBeUndefined();
    // The conversation comes with the branch when asked for.
    const withConversation = await getBranchScope(test.db, child.id, { conversation: true });
    expect(withConversation).toEqual({ ...scope, conversation: await getConversationById(test.db, child.conversationId) });
    const full = await getHistoryByBranchId(test.db, child.id);
    for (const ref of [child.id, scope]) {
      expect(await getHistoryByBranchId(test.db, ref)).toEqual(full);
      expect(await getHistoryByBranchId(test.db, ref, { last: 4 })).toEqual(full.slice(3));
      expect(await getHistoryByBranchId(test.db, ref, { last: 0 })).toEqual([]);
      expect(await getHistoryByBranchId(test.db, ref, { last: 2, toPosition: 5 })).toEqual(full.slice(3, 5));
      expect(contents(await getHistoryByBranchId(test.db, ref, { roles: ["user"] }))).toEqual(["u0", "u2", "c4", "c6"]);
      expect(contents(await getHistoryByBranchId(test.db, ref, { roles: ["assistant"], last: 2 }))).toEqual(["a3", "c5"]);
      expect(contents(await getHistoryByBranchId(test.db, ref, { positions: [5, 1, 9] }))).toEqual(["a1", "c5"]);
      expect(await getHistoryByBranchId(test.db, ref, { positions: [4] })).toEqual([full[4]]);
    }
    // The parent's messages past the fork point are not the child's.
    expect(contents(await getHistoryByBranchId(test.db, child.id, { fromPosition: 4, roles: ["assistant", "user"] }))).toEqual(["c4", "c5", "c6"]);
    await expect(getBranchScope(test.db, "no-such-branch")).rejects.toSatisfy(NotFoundError.isInstance);
    await expect(getBranchScope(test.db, "no-such-branch", { conversation: true })).rejects.toSatisfy(NotFoundError.isInstance);
  });

  it("[E-R1] totals a range's messages, tokens per role and final answers in the database, as the engine counts them", async () => {
    const call = (id: string) => ({ id, type: "function" as const, function: { name: "search", arguments: "{}" } });
    const messages: Message[] = [
      { role: "system", content: "be brief" },
      { role: "user", content: "find x" },
      { role: "assistant", content: null, tool_calls: [call("call_0")] },
      { role: "tool", content: "found", tool_call_id: "call_0" },
      { role: "assistant", content: "x is here" },
      { role: "user", content: "and y?" },
      { role: "assistant", content: "[Tool chain summary] searched for y twice" },
      { role: "assistant", content: "[tool chain summary] is what I would call it", tool_calls: [] },
      { role: "user", content: "thanks" },
      { role: "assistant", content: null },
      { role: "user", content: "one more" },
    ];
    const { branch } = await seedConversation(test.db, 0);
    await appendMessages(
      test.db,
      branch.id,
      messages.slice(0, 6).map((message) => turn(message)),
    );
    const child = await forkBranch(test.db, branch.id, { position: 6 });
    await appendMessages(test.db, branch.id, [user("parent only")]);
    await appendMessages(
      test.db,
      child.id,
      messages.slice(6).map((message) => turn(message)),
    );
    const history = await getHistoryByBranchId(test.db, child.id);
    const scope = await getBranchScope(test.db, child.id);
    for (const [from, to] of [
      [0, undefined],
      [0, 6],
      [2, 9],
      [6, undefined],
      [11, undefined],
    ] as const) {
      const part = history.filter((record) => record.position >= from && (to === undefined || record.position < to));
      const totals = await getHistoryTotalsByBranchId(test.db, scope, { fromPosition: from, toPosition: to });
      const of = (role: string) => part.filter((record) => record.message.role === role);
      const sum = (records: typeof part) => records.reduce((total, record) => total + record.tokens, 0);
      expect(totals).toEqual({
        messages: part.length,
        tokens: sum(part),
        roles: Object.fromEntries(["system", "user", "assistant", "tool"].map((role) => [role, { messages: of(role).length, tokens: sum(of(role)) }])),
        finalAnswers: part.filter((record) => isFinalAnswer(record.message)).length,
      });
    }
    const whole = await getHistoryTotalsByBranchId(test.db, child.id);
    const lastIsOpen = !isFinalAnswer(history.findLast((record) => record.message.role !== "system")!.message);
    expect(whole.finalAnswers + (lastIsOpen ? 1 : 0)).toBe(splitRounds(history.map((record) => record.message)).length);
    // A model's answer that starts like a chain summary is still an answer (the engine marks its own by a field).
    expect(whole.finalAnswers).toBe(4);
  });

  it("marks the conversation as updated on append", async () => {
    const { conversation, branch } = await seedConversation(test.db, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await appendMessages(test.db, branch.id, [user("later")]);
    const [overview] = await getConversations(test.db);
    expect(overview.id).toBe(conversation.id);
    expect(overview.updatedAt > conversation.updatedAt).toBe(true);
  });

  it("fails with NotFoundError on an unknown branch", async () => {
    await expect(appendMessages(test.db, "no-such-branch", [user("x")])).rejects.toSatisfy(
      (error: unknown) => NotFoundError.isInstance(error) && error.resource === "branch" && error.id === "no-such-branch",
    );
    await expect(getHistoryByBranchId(test.db, "no-such-branch")).rejects.toSatisfy(NotFoundError.isInstance);
  });
});
