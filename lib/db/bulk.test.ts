import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { createConversation } from "./conversations";
import { ConflictError } from "./errors";
import { appendMessages, appendMessagesBulk, BULK_CHARACTERS, bulkBatches, getHistoryByBranchId, type NewMessage } from "./messages";

const messages: NewMessage[] = [
  { message: { role: "system", content: "rules" }, tokens: 3 },
  { message: { role: "user", content: "quote ' \" and \\ and emoji 😀" }, tokens: 9 },
  {
    message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup", arguments: '{"id":1}' } }] },
    tokens: 12,
  },
  { message: { role: "tool", content: "{}", tool_call_id: "c1", name: "lookup" }, tokens: 2, metadata: { source: "import" } },
];

describe.each(TEST_PROVIDERS)("appendMessagesBulk (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[RL-D5] stores exactly what appendMessages stores, in position order, in batches", async () => {
    const one = await createConversation(test.db, { title: "slow path", source: "api" });
    const two = await createConversation(test.db, { title: "bulk path", source: "api" });
    await appendMessages(test.db, one.branch.id, messages);
    const many = Array.from({ length: 1_203 }, (_, index) => messages[index % messages.length]);
    await appendMessagesBulk(test.db, two.branch.id, messages, { expectedLength: 0 });
    await appendMessagesBulk(test.db, two.branch.id, many, { expectedLength: messages.length });
    const slow = await getHistoryByBranchId(test.db, one.branch.id);
    const bulk = await getHistoryByBranchId(test.db, two.branch.id);
    expect(bulk).toHaveLength(messages.length + many.length);
    expect(bulk.map((record) => record.position)).toEqual(bulk.map((_, index) => index));
    const shape = (record: (typeof slow)[number]) => ({ message: record.message, tokens: record.tokens, metadata: record.metadata });
    expect(bulk.slice(0, messages.length).map(shape)).toEqual(slow.map(shape));
    expect(Number.isNaN(Date.parse(bulk[0].createdAt))).toBe(false);
    expect(new Set(bulk.map((record) => record.id)).size).toBe(bulk.length);
  });

  it("[RL-ST8] stores rows of 300,000 characters among short ones exactly, in position order", async () => {
    const { branch } = await createConversation(test.db, { title: "long rows", source: "api" });
    const long = (letter: string): NewMessage => ({ message: { role: "user", content: letter.repeat(300_000) }, tokens: 1 });
    const written = [...messages, long("a"), long("b"), ...messages, long("c")];
    await appendMessagesBulk(test.db, branch.id, written, { expectedLength: 0 });
    const stored = await getHistoryByBranchId(test.db, branch.id);
    expect(stored.map((record) => record.message)).toEqual(written.map((entry) => entry.message));
  });

  it("[RL-D5] refuses a moved branch and writes nothing", async () => {
    const { branch } = await createConversation(test.db, { title: "moved", source: "api" });
    await expect(appendMessagesBulk(test.db, branch.id, messages, { expectedLength: 3 })).rejects.toSatisfy(ConflictError.isInstance);
    expect(await getHistoryByBranchId(test.db, branch.id)).toEqual([]);
  });
});

describe("bulkBatches", () => {
  it("[RL-ST8] closes a batch at 500 rows or at BULK_CHARACTERS of text, a longer row going alone", () => {
    const sizes = (rows: number[]) => bulkBatches(rows, (row) => row).map((batch) => batch.length);
    expect(sizes(Array.from({ length: 1_203 }, () => 10))).toEqual([500, 500, 203]);
    const third = Math.floor(BULK_CHARACTERS / 3);
    expect(sizes([third, third, third, third, 5])).toEqual([3, 2]);
    expect(bulkBatches([1, BULK_CHARACTERS * 4, 2, 3], (row) => row)).toEqual([[1], [BULK_CHARACTERS * 4], [2, 3]]);
    expect(bulkBatches([], (row: number) => row)).toEqual([]);
  });
});
