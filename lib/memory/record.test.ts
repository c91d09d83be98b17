import { describe, expect, it } from "vitest";
import { contentHandle, ContextError, offloadMarker, TiktokenCounter, type Message } from "@/lib/context";
import {
  ConflictError,
  getArtifactsByBranchId,
  getCheckpointsByBranchId,
  getHistoryByBranchId,
  getOffloadedContentsByBranchId,
  getSummariesByBranchId,
  InvalidArgumentError,
  putOffloadedContent,
  type Database,
  type JsonObject,
} from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { assistant, memoryConversation, tauBench, toolCall, toolResult, turnsOf, user } from "@/tests/support/memory-fixtures";
import { reloadOffloadedContent } from "./offloaded";
import { recordMessages } from "./record";
import { countingClient } from "@/tests/support/counting-client";

/** Everything recordMessages can write on a branch, to compare before and after a refused call. */
async function footprint(db: Database, branchId: string) {
  return {
    history: await getHistoryByBranchId(db, branchId),
    artifacts: await getArtifactsByBranchId(db, branchId),
    offloaded: await getOffloadedContentsByBranchId(db, branchId),
    summaries: await getSummariesByBranchId(db, branchId),
    checkpoints: await getCheckpointsByBranchId(db, branchId),
  };
}

describe.each(TEST_PROVIDERS)("recordMessages (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[MEM-1] stores each message with its tokens counted in the conversation's encoding", async () => {
    const messages = tauBench(12).slice(0, 8);
    for (const [model, encoding] of [
      ["gpt-4", "cl100k_base"],
      ["gpt-4o", "o200k_base"],
    ] as const) {
      const { branch } = await memoryConversation(test.db, { model });
      const { messages: stored } = await recordMessages(test.db, branch.id, messages);
      const counter = new TiktokenCounter({ encoding });
      expect(stored.map((record) => record.tokens)).toEqual(messages.map((message) => counter.countMessage(message)));
      expect(stored.map((record) => record.position)).toEqual(messages.map((_, index) => index));
      expect(stored.map((record) => record.message)).toEqual(messages);
    }
  });

  it("[MEM-2] turns a large tool result into an artifact and offloaded content, keeping a pointer in the raw turn", async () => {
    const trajectory = tauBench(2);
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 2_000 });
    await recordMessages(test.db, branch.id, trajectory.slice(0, 38));
    // Messages 38–39: search_direct_flight and its 2,835-character result.
    const [call, result] = trajectory.slice(38, 40);
    const original = result.content ?? "";
    expect(original.length).toBeGreaterThan(2_000);
    const recorded = await recordMessages(test.db, branch.id, [call, result], { metadata: [{ step: 1 }, { step: 2 }] });

    expect(recorded.artifacts).toHaveLength(1);
    const [artifact] = recorded.artifacts;
    expect(artifact).toMatchObject({
      branchId: branch.id,
      toolCallId: result.tool_call_id,
      toolName: "search_direct_flight",
      content: original,
      position: 39,
      size: original.length,
    });
    expect(artifact.summary).toContain("search_direct_flight(");
    expect(artifact.summary).toContain(call.tool_calls?.[0].function.arguments.slice(0, 20));
    expect(artifact.summary).toContain(original.slice(0, 40));

    const stored = recorded.messages[1];
    const metadata = stored.metadata as { artifactId: string; handle: string; originalSize: number; step: number };
    expect(metadata).toEqual({ step: 2, artifactId: artifact.id, handle: expect.stringMatching(/^off_[0-9a-f]{12}$/), originalSize: original.length });
    expect(stored.message).toMatchObject({ role: "tool", tool_call_id: result.tool_call_id });
    expect(stored.message.content?.startsWith(original.slice(0, 100))).toBe(true);
    expect(stored.message.content).toContain(offloadMarker(metadata.handle));
    expect(stored.message.content?.length).toBeLessThan(original.length);
    expect(stored.tokens).toBe(new TiktokenCounter({ encoding: "o200k_base" }).countMessage(stored.message));
    expect(recorded.messages[0].metadata).toEqual({ step: 1 });

    expect(await reloadOffloadedContent(test.db, branch.id, metadata.handle)).toMatchObject({ kind: "tool_result", content: original, position: 39 });
    const [offloaded] = await getOffloadedContentsByBranchId(test.db, branch.id);
    expect(offloaded.handle).toBe(metadata.handle);
    // The stored raw turn is what recordMessages returned, and it stays so.
    expect((await getHistoryByBranchId(test.db, branch.id)).at(-1)).toEqual(stored);
  });

  it("keeps results at the threshold raw and offloads results over it", async () => {
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 10 });
    const recorded = await recordMessages(test.db, branch.id, [
      user("look both up"),
      {
        role: "assistant",
        content: null,
        tool_calls: [0, 1].map((index) => ({ id: `call_${index}`, type: "function" as const, function: { name: "lookup", arguments: "{}" } })),
      },
      toolResult("call_0", "0123456789"),
      toolResult("call_1", "0123456789A"),
    ]);
    expect(recorded.messages[2].message.content).toBe("0123456789");
    expect(recorded.messages[2].metadata).toBeNull();
    expect(recorded.artifacts.map((artifact) => [artifact.position, artifact.toolName])).toEqual([[3, "lookup"]]);
  });

  it("[E-P2] an artifact names the tool of the call its result answers when ids repeat within a message and across turns", async () => {
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 5 });
    const calling = (...names: string[]): Message => ({
      role: "assistant",
      content: null,
      tool_calls: names.map((name) => ({ id: "call_0", type: "function" as const, function: { name, arguments: "{}" } })),
    });
    await recordMessages(test.db, branch.id, [user("first"), calling("search"), toolResult("call_0", "long result one"), assistant("ok")]);
    const recorded = await recordMessages(test.db, branch.id, [
      user("second"),
      calling("lookup", "cancel"),
      toolResult("call_0", "long result two"),
      toolResult("call_0", "long result three"),
    ]);
    expect(recorded.artifacts.map((artifact) => [artifact.position, artifact.toolName])).toEqual([
      [6, "lookup"],
      [7, "cancel"],
    ]);
  });

  it("[E-P1] accepts results that answer calls recorded earlier, one by one", async () => {
    const { branch } = await memoryConversation(test.db);
    const calls: Message = {
      role: "assistant",
      content: null,
      tool_calls: ["call_0", "call_1"].map((id) => ({ id, type: "function" as const, function: { name: "get_reservation_details", arguments: "{}" } })),
    };
    await recordMessages(test.db, branch.id, [user("check both"), calls]);
    await recordMessages(test.db, branch.id, [toolResult("call_0", "first")]);
    await recordMessages(test.db, branch.id, [toolResult("call_1", "second"), assistant("done")]);
    expect(await getHistoryByBranchId(test.db, branch.id)).toHaveLength(5);
  });

  it("[E-P1] refuses messages that would break tool pairing, naming the message, and writes nothing", async () => {
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 10 });
    await recordMessages(test.db, branch.id, [user("hello"), toolCall("call_0", "get_reservation_details", { reservation_id: "ZFA04Y" })]);
    const cases: { messages: Message[]; where: string; says: RegExp }[] = [
      { messages: [user("are you there?")], where: "messages[0]", says: /history position 2\) .*tool call 'call_0' of message 1 has no result/ },
      {
        messages: [toolResult("call_0", "x".repeat(50)), toolResult("call_9", "y".repeat(50))],
        where: "messages[1]",
        says: /history position 3\) .*'call_9' answers no tool call/,
      },
      { messages: [toolResult("call_0", "x".repeat(50)), toolResult("call_0", "again")], where: "messages[1]", says: /'call_0' already has a result/ },
      {
        messages: [toolResult("call_0", "ok"), assistant("done"), toolResult("call_0", "late")],
        where: "messages[2]",
        says: /history position 4\) .*'call_0' answers no tool call/,
      },
    ];
    const before = await footprint(test.db, branch.id);
    for (const { messages, where, says } of cases) {
      const error = await recordMessages(test.db, branch.id, messages).catch((caught: unknown) => caught);
      expect(ContextError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ where, message: expect.stringMatching(says) });
      expect(await footprint(test.db, branch.id)).toEqual(before);
    }
  });

  it("[MEM-3] a failing summarizer leaves nothing of the call behind", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 4, artifactThreshold: 1_000 });
    const turns = turnsOf(tauBench(2));
    await recordMessages(test.db, branch.id, [...turns[0], ...turns[1], ...turns[2]]);
    const before = await footprint(test.db, branch.id);
    expect(before.summaries).toHaveLength(0);
    const failing = async () => {
      throw new Error("model unavailable");
    };
    // Turns 3–4 (messages 7–61) carry large tool results and make the branch due: artifacts, messages and a summary would be written.
    await expect(recordMessages(test.db, branch.id, [...turns[3], ...turns[4]], { summarizer: failing })).rejects.toThrow("model unavailable");
    expect(await footprint(test.db, branch.id)).toEqual(before);
  });

  it("rolls back artifacts and messages already written when a later write of the call fails", async () => {
    const trajectory = tauBench(2);
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 1_000 });
    await recordMessages(test.db, branch.id, trajectory.slice(0, 38));
    const before = await footprint(test.db, branch.id);
    // The result's metadata cannot be stored as JSON: appending it fails after its artifact and content were created.
    const metadata: JsonObject[] = [{}, { size: 1n as unknown as number }];
    const failure = await recordMessages(test.db, branch.id, trajectory.slice(38, 40), { metadata }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(failure), String(failure)).toBe(true);
    expect(await footprint(test.db, branch.id)).toEqual(before);
  });

  it("never reuses a handle the branch already sees for other content", async () => {
    const trajectory = tauBench(2);
    const { branch } = await memoryConversation(test.db, { artifactThreshold: 1_000 });
    await recordMessages(test.db, branch.id, trajectory.slice(0, 38));
    const original = trajectory[39].content ?? "";
    const natural = contentHandle(original, () => false);
    await putOffloadedContent(test.db, branch.id, { handle: natural, kind: "message", content: "someone else's text" });
    const recorded = await recordMessages(test.db, branch.id, trajectory.slice(38, 40));
    const handle = (recorded.messages[1].metadata as { handle: string }).handle;
    expect(handle).not.toBe(natural);
    expect((await reloadOffloadedContent(test.db, branch.id, handle)).content).toBe(original);
    expect((await reloadOffloadedContent(test.db, branch.id, natural)).content).toBe("someone else's text");
  });

  it("[E-P1] checks pairing against a tail longer than one read: 20 parallel calls answered one by one", async () => {
    // Summaries off: the state reads only the last few messages, and the tail of results grows past them.
    const { branch } = await memoryConversation(test.db, { mode: "pilot", artifactThreshold: 1_000 });
    await recordMessages(test.db, branch.id, tauBench(12));
    const ids = Array.from({ length: 20 }, (_, index) => `call_${index}`);
    const calls: Message = {
      role: "assistant",
      content: null,
      tool_calls: ids.map((id) => ({ id, type: "function" as const, function: { name: "lookup", arguments: `{"id":"${id}"}` } })),
    };
    const [{ position: callAt }] = (await recordMessages(test.db, branch.id, [user("look all of them up"), calls])).messages.slice(1);
    for (const [index, id] of ids.entries()) {
      if (index === 18) {
        const early = await recordMessages(test.db, branch.id, [user("done yet?")]).catch((caught: unknown) => caught);
        expect(early).toMatchObject({ where: "messages[0]", message: expect.stringContaining(`tool call 'call_18' of message ${callAt} has no result`) });
      }
      const { messages, artifacts } = await recordMessages(test.db, branch.id, [toolResult(id, index % 5 === 0 ? `${id} `.repeat(300) : `${id} found`)]);
      expect(messages[0].position).toBe(callAt + 1 + index);
      // The call is found for every result, so the artifact names its tool.
      if (index % 5 === 0) expect(artifacts.map((artifact) => artifact.toolName)).toEqual(["lookup"]);
    }
    const again = await recordMessages(test.db, branch.id, [toolResult("call_3", "again")]).catch((caught: unknown) => caught);
    expect(again).toMatchObject({ where: "messages[0]", message: expect.stringContaining("'call_3' already has a result") });
    expect((await recordMessages(test.db, branch.id, [assistant("All 20 found.")])).messages[0].position).toBe(callAt + 21);
  });

  it("reads and writes as many queries and rows per turn on a long branch as on a short one", async () => {
    const pair = (index: number) => [user(`question ${index}`), assistant(`answer ${index}`)];
    /** A copilot branch (summary threshold 10) of `pairs` exchanges, recorded 20 at a time: each batch ends compacted, 2 rounds raw. */
    const branchOf = async (pairs: number) => {
      const { branch } = await memoryConversation(test.db, { artifactThreshold: 1_000 });
      for (let start = 0; start < pairs; start += 20)
        await recordMessages(test.db, branch.id, Array.from({ length: 20 }, (_, index) => pair(start + index)).flat());
      return branch.id;
    };
    const turns: Message[][] = [
      ...Array.from({ length: 4 }, (_, index) => pair(1_000 + index))
        .flat()
        .map((message) => [message]),
      [user("look it up"), toolCall("call_0", "lookup", { q: "x" }), toolResult("call_0", "x".repeat(1_500)), assistant("found x")],
      ...Array.from({ length: 4 }, (_, index) => pair(2_000 + index))
        .flat()
        .map((message) => [message]),
    ];
    const operations = async (branchId: string) => {
      const counted = countingClient(test.db);
      const counts: { operations: number; rows: number }[] = [];
      let compactions = 0;
      for (const turn of turns) {
        const before = counted.count();
        if ((await recordMessages(counted.db, branchId, turn)).compaction) compactions += 1;
        const after = counted.count();
        counts.push({ operations: after.operations - before.operations, rows: after.rows - before.rows });
      }
      return { counts, compactions };
    };
    const short = await operations(await branchOf(10));
    const long = await operations(await branchOf(300));
    expect(long.compactions).toBeGreaterThan(1);
    expect(long).toEqual(short);
  });

  it("appends optimistically with expectedLength and refuses a moved branch", async () => {
    const { branch } = await memoryConversation(test.db);
    await recordMessages(test.db, branch.id, [user("one")], { expectedLength: 0 });
    await expect(recordMessages(test.db, branch.id, [assistant("two")], { expectedLength: 0 })).rejects.toSatisfy(ConflictError.isInstance);
    await expect(recordMessages(test.db, branch.id, [assistant("two")], { metadata: [] })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(await getHistoryByBranchId(test.db, branch.id)).toHaveLength(1);
  });

  it("[MEM-1] never rewrites raw turns, through artifacts and compactions", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "navigator", artifactThreshold: 1_000 });
    const returned = [];
    let compactions = 0;
    for (const turn of turnsOf(tauBench(0))) {
      const recorded = await recordMessages(test.db, branch.id, turn);
      returned.push(...recorded.messages);
      if (recorded.compaction) compactions += 1;
    }
    expect(compactions).toBeGreaterThan(1);
    expect(await getHistoryByBranchId(test.db, branch.id)).toEqual(returned);
  });

  it("records concurrent turns on one branch without losing or repeating positions", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 3 });
    await Promise.all(Array.from({ length: 6 }, (_, index) => recordMessages(test.db, branch.id, [user(`question ${index}`), assistant(`answer ${index}`)])));
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history.map((record) => record.position)).toEqual([...Array(12).keys()]);
    const chain = await getSummariesByBranchId(test.db, branch.id);
    expect(chain.length).toBeGreaterThan(0);
    chain.forEach((summary, index) => expect(summary.fromPosition).toBe(index === 0 ? 0 : chain[index - 1].toPosition));
  });
});
