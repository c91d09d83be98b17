import { afterEach, describe, expect, it, vi } from "vitest";
import { getHistoryByBranchId } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { memoryConversation, user, assistant } from "@/tests/support/memory-fixtures";
import { recordMessages } from "./record";
import { createSlicer, SLICE_ITEMS } from "./slices";

afterEach(() => vi.restoreAllMocks());

/** setImmediate calls while `work` runs: each one is a turn other requests get. */
async function countYields(work: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(globalThis, "setImmediate");
  await work();
  const calls = spy.mock.calls.length;
  spy.mockRestore();
  return calls;
}

describe("createSlicer", () => {
  it("[RL-ST3] yields to the event loop at least once every SLICE_ITEMS steps", async () => {
    const slicer = createSlicer();
    const yields = await countYields(async () => {
      for (let step = 0; step < 10 * SLICE_ITEMS; step += 1) await slicer.step();
    });
    expect(yields).toBeGreaterThanOrEqual(10);
  });
});

describe.each(TEST_PROVIDERS)("a long append (%s)", (provider) => {
  const test = useTestDatabase(provider);
  const COUNT = 4_000;
  const turns = Array.from({ length: COUNT }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer ${index}`)));

  it("[RL-ST3] counts a 4,000-message append's tokens in slices that yield at least once every SLICE_ITEMS messages", async () => {
    const { branch } = await memoryConversation(test.db);
    const yields = await countYields(() => recordMessages(test.db, branch.id, turns));
    expect(yields).toBeGreaterThanOrEqual(COUNT / SLICE_ITEMS);
  });

  it("[RL-ST2] answers with the records as stored: ids, positions, tokens and times read back the same", async () => {
    const { branch } = await memoryConversation(test.db);
    const { messages: answered } = await recordMessages(test.db, branch.id, turns.slice(0, 1_200));
    const stored = await getHistoryByBranchId(test.db, branch.id);
    expect(answered).toHaveLength(1_200);
    expect(answered).toEqual(stored);
    expect(new Set(answered.map((record) => record.id)).size).toBe(1_200);
  });
});
