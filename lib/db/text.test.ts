import { describe, expect, it } from "vitest";
import { TEST_PROVIDERS, useTestDatabase } from "@/tests/support/db";
import { createConversation } from "./conversations";
import { InvalidArgumentError } from "./errors";
import { appendMessages, appendMessagesBulk, getHistoryByBranchId } from "./messages";
import { findUnstorableText } from "./text";

describe("findUnstorableText", () => {
  it("[IN-3] names the first lone surrogate anywhere, and U+0000 only for PostgreSQL", () => {
    const body = {
      model: "m",
      messages: [
        { role: "user", content: "ok 😀" },
        { role: "user", content: [{ type: "text", text: "cut \ud83d" }] },
      ],
    };
    expect(findUnstorableText(body, "sqlite")).toMatchObject({
      path: "messages[1].content[0].text",
      message: expect.stringContaining("lone UTF-16 surrogate"),
    });
    expect(findUnstorableText({ "odd key": "\u0000" }, "postgres")).toMatchObject({ path: '["odd key"]', message: expect.stringContaining("U+0000") });
    expect(findUnstorableText({ text: "\u0000" }, "sqlite")).toBeNull();
    expect(findUnstorableText({ "\udc00": 1 }, "sqlite")).toMatchObject({ path: "", message: expect.stringMatching(/^has a key that holds a lone/) });
    expect(findUnstorableText("\ude00\ud83d", "sqlite")).toMatchObject({ path: "" });
  });

  it("[IN-3] walks any depth without recursion", () => {
    let deep: unknown = "cut \ud83d";
    for (let level = 0; level < 50_000; level += 1) deep = [deep];
    expect(findUnstorableText(deep, "sqlite")?.path).toMatch(/^(\[0\]){50000}$/);
  });
});

describe.each(TEST_PROVIDERS)("storing text (%s)", (provider) => {
  const test = useTestDatabase(provider);

  it("[IN-3] refuses a lone surrogate in a text column with InvalidArgumentError naming the field, on every write path", async () => {
    const { branch } = await createConversation(test.db, { title: "text", source: "api" });
    const appending = appendMessages(test.db, branch.id, [
      { message: { role: "user", content: "fine" }, tokens: 1 },
      { message: { role: "tool", content: "ok", tool_call_id: "call_\ud83d" }, tokens: 1 },
    ]);
    await expect(appending).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(appending).rejects.toThrow(/^messages\[1\]\.tool_call_id holds a lone UTF-16 surrogate/);
    const bulk = appendMessagesBulk(test.db, branch.id, [{ message: { role: "user", content: "cut \ud83d" }, tokens: 1 }]);
    await expect(bulk).rejects.toThrow(/^messages\[0\]\.content holds a lone/);
    expect(await getHistoryByBranchId(test.db, branch.id)).toEqual([]);
  });

  it("[IN-3] stores U+0000 on SQLite and refuses it, naming the field, on PostgreSQL; inside JSON columns it is stored on both", async () => {
    const { branch } = await createConversation(test.db, { title: "nul", source: "api" });
    const inText = appendMessages(test.db, branch.id, [{ message: { role: "user", name: "a\u0000b", content: "x" }, tokens: 1 }]);
    if (provider === "postgres") await expect(inText).rejects.toThrow(/^messages\[0\]\.name holds the character U\+0000/);
    else await expect(inText).resolves.toHaveLength(1);
    const inJson = { role: "user" as const, content: "y", extras: { vendor: { raw: "a\u0000b" } } };
    await appendMessages(test.db, branch.id, [{ message: inJson, tokens: 1, metadata: { note: "\u0000" } }]);
    const stored = (await getHistoryByBranchId(test.db, branch.id)).at(-1);
    expect(stored?.message).toEqual(inJson);
    expect(stored?.metadata).toEqual({ note: "\u0000" });
  });
});
