import { describe, expect, it } from "vitest";
import { appendMessages, createSummary, getHistoryByBranchId, getSummariesByBranchId } from "@/lib/db";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { seedConversation, user } from "@/tests/support/db-fixtures";
import { inTransaction } from "./transaction";

describe.each(TEST_PROVIDERS)("inTransaction (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("commits the storage layer's writes together", async () => {
    const { branch } = await seedConversation(test.db, 4);
    await inTransaction(test.db, async (db) => {
      await appendMessages(db, branch.id, [user("u4")]);
      await createSummary(db, branch.id, { fromPosition: 0, toPosition: 5, text: "S1", tokens: 1 });
    });
    expect(await getHistoryByBranchId(test.db, branch.id)).toHaveLength(5);
    expect(await getSummariesByBranchId(test.db, branch.id)).toHaveLength(1);
  });

  it("rolls all of them back when the work throws", async () => {
    const { branch } = await seedConversation(test.db, 4);
    await expect(
      inTransaction(test.db, async (db) => {
        await appendMessages(db, branch.id, [user("u4")]);
        await createSummary(db, branch.id, { fromPosition: 0, toPosition: 5, text: "S1", tokens: 1 });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await getHistoryByBranchId(test.db, branch.id)).toHaveLength(4);
    expect(await getSummariesByBranchId(test.db, branch.id)).toHaveLength(0);
  });
});
