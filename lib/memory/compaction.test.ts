import { describe, expect, it } from "vitest";
import { splitRounds, type Message, type Summarizer } from "@/lib/context";
import { getCheckpointsByBranchId, getHistoryByBranchId, getSummaryChainByBranchId, type MessageRecord } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { assistant, memoryConversation, tauBench, turnsOf, user } from "@/tests/support/memory-fixtures";
import { forkBranch } from "@/lib/db";
import { compactBranch } from "./compaction";
import { recordMessages } from "./record";

const nonSystem = (messages: readonly Message[]) => messages.filter((message) => message.role !== "system").length;

/** A checkpoint's history figures and token usage counted from the whole history it covers, as a reference. */
function countedFigures(history: readonly MessageRecord[], toPosition: number) {
  const tokensOf = (predicate: (record: MessageRecord) => boolean) => history.filter(predicate).reduce((sum, record) => sum + record.tokens, 0);
  const system = tokensOf((record) => record.message.role === "system");
  const summarized = tokensOf((record) => record.message.role !== "system" && record.position < toPosition);
  const raw = tokensOf((record) => record.message.role !== "system" && record.position >= toPosition);
  const messages = history.map((record) => record.message);
  return {
    history: {
      length: history.length,
      rounds: splitRounds(messages).length,
      rawFrom: toPosition,
      rawMessages: history.length - toPosition,
      rawRounds: splitRounds(messages.slice(toPosition)).length,
    },
    raw,
    system,
    summarized,
  };
}

describe.each(TEST_PROVIDERS)("compaction (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[MEM-4][MEM-5] persists a summary and a checkpoint after the turn that crosses the threshold, and not before", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 6, artifactThreshold: 1_000 });
    const recorded: Message[] = [];
    for (const turn of turnsOf(tauBench(2))) {
      const crossing = nonSystem([...recorded, ...turn]) > 6;
      const { compaction } = await recordMessages(test.db, branch.id, turn);
      recorded.push(...turn);
      if (!crossing) {
        expect(compaction).toBeNull();
        expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([]);
        continue;
      }
      // After turn 7–8: rounds 1–2, 3–6 and 7–8; the last 2 stay raw, so messages 0–2 are summarized.
      expect(compaction).not.toBeNull();
      const { summary, checkpoint, coveredUntil } = compaction!;
      const rounds = splitRounds(recorded);
      expect(coveredUntil).toBe(rounds[rounds.length - 2].start);
      expect(summary).toMatchObject({ branchId: branch.id, fromPosition: 0, toPosition: coveredUntil, extendsId: null });
      expect(coveredUntil).toBe(3);
      expect(summary.text).toContain("downgrading your flights from business to economy");
      expect(checkpoint).toMatchObject({ branchId: branch.id, version: 1, summaryId: summary.id, messageCount: recorded.length });
      expect(await getSummaryChainByBranchId(test.db, branch.id)).toEqual([summary]);
      expect(await getCheckpointsByBranchId(test.db, branch.id)).toEqual([checkpoint]);
      return;
    }
    throw new Error("the trajectory never crossed the threshold");
  });

  it("[MEM-4] keeps the 2 most recent rounds raw, cut where no tool pair is split", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 4 });
    const turns = turnsOf(tauBench(27));
    for (const turn of turns) await recordMessages(test.db, branch.id, turn);
    const history = (await getHistoryByBranchId(test.db, branch.id)).map((record) => record.message);
    const chain = await getSummaryChainByBranchId(test.db, branch.id);
    const cut = chain.at(-1)!.toPosition;
    const raw = history.slice(cut);
    expect(raw[0].role).toBe("user");
    expect(splitRounds(raw)).toHaveLength(2);
    for (const summary of chain) expect(history[summary.toPosition].role).toBe("user");
  });

  it("[MEM-5] extends the chain across compactions: linked, contiguous, each checkpoint on its summary", async () => {
    const previous: (string | undefined)[] = [];
    const summarizer: Summarizer = async (messages, options) => {
      previous.push(options?.previousSummary);
      return `S${previous.length}: ${messages.length} messages`;
    };
    const { branch } = await memoryConversation(test.db, { mode: "navigator" });
    for (const turn of turnsOf(tauBench(0))) await recordMessages(test.db, branch.id, turn, { summarizer });
    const chain = await getSummaryChainByBranchId(test.db, branch.id);
    const checkpoints = await getCheckpointsByBranchId(test.db, branch.id);
    expect(chain.length).toBeGreaterThanOrEqual(3);
    chain.forEach((summary, index) => {
      expect(summary.fromPosition).toBe(index === 0 ? 0 : chain[index - 1].toPosition);
      expect(summary.extendsId).toBe(index === 0 ? null : chain[index - 1].id);
      expect(summary.text).toMatch(new RegExp(`^S${index + 1}: `));
    });
    // Each summary extends the previous one: its text went to the summarizer as previousSummary.
    expect(previous).toEqual([undefined, ...chain.slice(0, -1).map((summary) => summary.text)]);
    expect(checkpoints.map((checkpoint) => checkpoint.version)).toEqual(chain.map((_, index) => index + 1));
    expect(checkpoints.map((checkpoint) => checkpoint.summaryId)).toEqual(chain.map((summary) => summary.id));
  });

  it("[MEM-5] writes a checkpoint whose values are a readable, diffable context state", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 6, artifactThreshold: 1_000, model: "gpt-4" });
    for (const turn of turnsOf(tauBench(2))) await recordMessages(test.db, branch.id, turn);
    // Turn 7–8 crossed the threshold, then turn 9–61 again: the second checkpoint holds the large results' artifacts.
    const checkpoints = await getCheckpointsByBranchId(test.db, branch.id);
    const chain = await getSummaryChainByBranchId(test.db, branch.id);
    expect(checkpoints).toHaveLength(2);
    const checkpoint = checkpoints[1];
    const summary = chain[1];
    const history = await getHistoryByBranchId(test.db, branch.id);
    const messages = history.map((record) => record.message);
    const artifacts = checkpoint.artifactRefs;
    expect(artifacts.length).toBeGreaterThan(0);
    const tokensOf = (predicate: (position: number, role: string) => boolean) =>
      history.filter((record) => predicate(record.position, record.message.role)).reduce((sum, record) => sum + record.tokens, 0);
    const system = tokensOf((_, role) => role === "system");
    const summarized = tokensOf((position, role) => role !== "system" && position < summary.toPosition);
    const raw = tokensOf((position, role) => role !== "system" && position >= summary.toPosition);
    const tokenUsage = {
      history: system + summarized + raw,
      system,
      summarized,
      summary: summary.tokens,
      raw,
      context: system + summary.tokens + raw,
      saved: summarized - summary.tokens,
    };
    expect(checkpoint.values).toEqual({
      branch_id: branch.id,
      summary: { id: summary.id, fromPosition: 3, toPosition: 7, tokens: summary.tokens, extendsId: chain[0].id, chainLength: 2 },
      history: { length: history.length, rounds: splitRounds(messages).length, rawFrom: 7, rawMessages: history.length - 7, rawRounds: 2 },
      offloaded_messages: history.flatMap((record) => (record.metadata?.handle ? [record.metadata.handle] : [])),
      artifacts,
      settings: {
        mode: "copilot",
        model: "gpt-4",
        encoding: "cl100k_base",
        historyRounds: 20,
        summaryThreshold: 6,
        // Window and reply reserve follow the model (gpt-4's 8,192 tokens); no hard budget unless set.
        tokenBudget: null,
        contextWindow: 8_192,
        maxOutputTokens: 2_048,
        artifactThreshold: 1_000,
      },
      needs_summary: false,
      token_usage: tokenUsage,
    });
    expect(checkpoint.tokenUsage).toEqual(tokenUsage);
    expect(checkpoint.metadata).toMatchObject({ source: "lib/memory", reason: "threshold" });
  });

  it("[MEM-5] counts every checkpoint's history figures as the whole history would, across forks, without reading it", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "navigator", artifactThreshold: 1_000 });
    const trajectories = [0, 12, 2, 41, 27, 44].map((task) => turnsOf(tauBench(task)));
    for (const [index, turns] of trajectories.entries()) {
      for (const turn of turns.slice(index === 0 ? 0 : 1)) await recordMessages(test.db, branch.id, turn);
      // A second system message, a tool-chain summary, an empty tool_calls array: none of them ends or opens a round like a final answer.
      if (index === 1) await recordMessages(test.db, branch.id, [{ role: "system", content: "Be brief from now on." }]);
      if (index === 3)
        await recordMessages(test.db, branch.id, [
          user("and?"),
          { role: "assistant", content: "[Tool chain summary] looked it up", tool_calls: [] },
          assistant("done"),
        ]);
    }
    // Forked where a user turn starts, past a few compactions.
    const at = (await getHistoryByBranchId(test.db, branch.id)).find((record) => record.position >= 100 && record.message.role === "user")!.position;
    const fork = await forkBranch(test.db, branch.id, { position: at });
    for (const turn of turnsOf(tauBench(2)).slice(1)) await recordMessages(test.db, fork.id, turn);
    for (const branchId of [branch.id, fork.id]) {
      const history = await getHistoryByBranchId(test.db, branchId);
      const chain = await getSummaryChainByBranchId(test.db, branchId);
      const checkpoints = await getCheckpointsByBranchId(test.db, branchId);
      expect(checkpoints.length).toBeGreaterThan(1);
      for (const checkpoint of checkpoints) {
        const summary = chain.find((link) => link.id === checkpoint.summaryId)!;
        const counted = countedFigures(history.slice(0, checkpoint.messageCount), summary.toPosition);
        expect(checkpoint.values.history).toEqual(counted.history);
        expect(checkpoint.values.summary).toMatchObject({ chainLength: chain.indexOf(summary) + 1 });
        const { system, summarized, raw } = counted;
        expect(checkpoint.tokenUsage).toEqual({
          history: system + summarized + raw,
          system,
          summarized,
          summary: summary.tokens,
          raw,
          context: system + summary.tokens + raw,
          saved: summarized - summary.tokens,
        });
      }
    }
  });

  it("[MEM-4] compacts exactly when a raw part longer than one read crosses the threshold", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 300 });
    const dialogue = Array.from({ length: 150 }, (_, index) => [user(`question ${index}`), assistant(`answer ${index}`)]).flat();
    for (let start = 0; start < dialogue.length; start += 60) {
      expect((await recordMessages(test.db, branch.id, dialogue.slice(start, start + 60))).compaction).toBeNull();
    }
    // 300 raw messages, then the 301st: due.
    const { compaction } = await recordMessages(test.db, branch.id, [user("one more")]);
    expect(compaction).toMatchObject({ summary: { fromPosition: 0, toPosition: 298 }, checkpoint: { messageCount: 301 } });
    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(compaction!.checkpoint.values.history).toEqual(countedFigures(history, 298).history);
  });

  it("compactBranch returns null when nothing is due; force compacts below the threshold and with summaries disabled", async () => {
    const { branch } = await memoryConversation(test.db, { mode: "pilot" });
    const dialogue = Array.from({ length: 8 }, (_, index) => [user(`question ${index}`), assistant(`answer ${index}`)]).flat();
    const { compaction } = await recordMessages(test.db, branch.id, dialogue);
    expect(compaction).toBeNull();
    expect(await compactBranch(test.db, branch.id)).toBeNull();
    const forced = await compactBranch(test.db, branch.id, { force: true });
    expect(forced).toMatchObject({
      coveredUntil: 12,
      summary: { fromPosition: 0, toPosition: 12 },
      checkpoint: { version: 1, metadata: { reason: "forced" } },
    });
    // Only the 2 kept rounds are raw now: forcing again finds nothing older.
    expect(await compactBranch(test.db, branch.id, { force: true })).toBeNull();
    expect(await getSummaryChainByBranchId(test.db, branch.id)).toHaveLength(1);
  });

  it("compactBranch compacts a branch written around recordMessages once it is due", async () => {
    const { branch } = await memoryConversation(test.db, { summaryThreshold: 4 });
    const dialogue = Array.from({ length: 4 }, (_, index) => [user(`question ${index}`), assistant(`answer ${index}`)]).flat();
    await recordMessages(test.db, branch.id, dialogue.slice(0, 4));
    expect(await compactBranch(test.db, branch.id)).toBeNull();
    await recordMessages(test.db, branch.id, dialogue.slice(4), { summarizer: async () => "unused" });
    // recordMessages already compacted the due branch.
    expect(await compactBranch(test.db, branch.id)).toBeNull();
    expect((await getSummaryChainByBranchId(test.db, branch.id)).map((summary) => [summary.fromPosition, summary.toPosition, summary.text])).toEqual([
      [0, 4, "unused"],
    ]);
  });
});
