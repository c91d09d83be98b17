import { describe, expect, it } from "vitest";
import { PATCH as patchConversation } from "@/app/api/conversations/[id]/route";
import { POST as postMessages } from "@/app/api/branches/[branchId]/messages/route";
import { createConversation, getConversationById, getHistoryByBranchId } from "@/lib/db";
import { DEFAULT_SETTINGS } from "@/lib/settings";
import { call, useApiTestDatabase } from "@/tests/api/support";
import { TEST_PROVIDERS } from "@/tests/support/db";

// Fifty writers at once on one conversation, through the route handlers, on both databases:
// no PATCH loses another's fields, no append without an expected length is refused, nothing 500s.

/** Ten settings fields, each PATCHed five times with values no default has. */
const FIELDS: Record<string, readonly unknown[]> = {
  historyRounds: [101, 102, 103, 104, 105],
  summaryThreshold: [70_001, 70_002, 70_003, 70_004, 70_005],
  offloadThreshold: [60_001, 60_002, 60_003, 60_004, 60_005],
  maxMessageSize: [50_001, 50_002, 50_003, 50_004, 50_005],
  maxToolResultSize: [40_001, 40_002, 40_003, 40_004, 40_005],
  tokenBudget: [30_001, 30_002, 30_003, 30_004, 30_005],
  contextWindow: [900_001, 900_002, 900_003, 900_004, 900_005],
  maxOutputTokens: [20_001, 20_002, 20_003, 20_004, 20_005],
  artifactThreshold: [10_001, 10_002, 10_003, 10_004, 10_005],
  model: ["model-a", "model-b", "model-c", "model-d", "model-e"],
};

describe.each(TEST_PROVIDERS)("fifty concurrent writers (%s)", (provider) => {
  const test = useApiTestDatabase(provider);

  it("[RL-D1] applies 50 concurrent settings PATCHes and 50 appends without losing one, no 409, no 500", async () => {
    const { conversation, branch } = await createConversation(test.db, { title: "contended", source: "api", settings: { ...DEFAULT_SETTINGS } });
    const patches = Object.entries(FIELDS).flatMap(([field, values]) =>
      values.map((value) => () => call(patchConversation, { method: "PATCH", body: { settings: { [field]: value } }, params: { id: conversation.id } })),
    );
    const appends = Array.from(
      { length: 50 },
      (_, index) => () =>
        call(postMessages, { method: "POST", body: { messages: [{ role: "user", content: `writer ${index}` }] }, params: { branchId: branch.id } }),
    );
    // Interleaved, all started before any finishes.
    const work = patches.flatMap((patch, index) => [patch, appends[index]]);
    const results = await Promise.all(work.map((start) => start()));
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status !== 200 && status !== 201)).toEqual([]);

    const settings = (await getConversationById(test.db, conversation.id)).settings as Record<string, unknown>;
    for (const [field, values] of Object.entries(FIELDS)) expect(values).toContain(settings[field]);

    const history = await getHistoryByBranchId(test.db, branch.id);
    expect(history.map((record) => record.position)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(new Set(history.map((record) => record.message.content))).toEqual(new Set(Array.from({ length: 50 }, (_, index) => `writer ${index}`)));
  }, 120_000);
});
