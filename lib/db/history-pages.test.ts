import { describe, expect, it } from "vitest";
import { appendMessagesBulk, createConversation, forkBranch, getHistoryByBranchId } from "@/lib/db";
import { countingClient } from "@/tests/support/counting-client";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { turn } from "@/tests/support/db-fixtures";
import { HISTORY_PAGE_MESSAGES } from "./messages";

const turns = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => turn({ role: (from + index) % 2 === 0 ? "user" : "assistant", content: `message ${from + index}` }));

describe.each(TEST_PROVIDERS)("a long history's read (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[RL-ST4] reads a forked 5,000-message history in pages of at most HISTORY_PAGE_MESSAGES, whole and in order", async () => {
    const { branch: main } = await createConversation(test.db, { title: "long", source: "manual" });
    await appendMessagesBulk(test.db, main.id, turns(3_000));
    const fork = await forkBranch(test.db, main.id, { position: 2_500, name: "fork" });
    await appendMessagesBulk(test.db, fork.id, turns(2_500, 2_500));

    const counting = countingClient(test.db);
    const history = await getHistoryByBranchId(counting.db, fork.id);
    expect(history.map((record) => record.position)).toEqual(Array.from({ length: 5_000 }, (_, index) => index));
    expect(history.map((record) => record.message.content)).toEqual(Array.from({ length: 5_000 }, (_, index) => `message ${index}`));
    expect(history[2_499].branchId).toBe(main.id);
    expect(history[2_500].branchId).toBe(fork.id);
    const { largest, rows } = counting.count();
    expect(largest).toBeLessThanOrEqual(HISTORY_PAGE_MESSAGES);
    expect(rows).toBeGreaterThanOrEqual(5_000);

    const tail = await getHistoryByBranchId(test.db, fork.id, { fromPosition: 1_999, toPosition: 4_001 });
    expect(tail.map((record) => record.position)).toEqual(Array.from({ length: 2_002 }, (_, index) => 1_999 + index));
  });
});
