import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { DEFAULT_MAX_IMPORT_BYTES, IMPORT_FORMAT_LABELS, ImportError, UNKNOWN_FORMAT_MESSAGE, parseConversations, type ImportFormat } from "./index";

const user = { role: "user", content: "hi" };
const assistant = { role: "assistant", content: "hello" };

describe("parseConversations format detection", () => {
  const cases: [string, string, ImportFormat, number][] = [
    ["an array of OpenAI messages", JSON.stringify([user, assistant]), "openai", 1],
    ["{messages}", JSON.stringify({ messages: [user] }), "openai", 1],
    ["a chat-completions request", readFixture("import/openai-request-task-41.json"), "openai", 1],
    ["an array of requests", JSON.stringify([{ messages: [user] }, { messages: [assistant] }]), "openai", 2],
    ["JSONL messages", readFixture("import/openai-messages-task-41.jsonl"), "jsonl", 1],
    ["JSONL requests", readFixture("import/openai-requests.jsonl"), "jsonl", 3],
    ["an Anthropic request", readFixture("import/anthropic-task-41.json"), "anthropic", 1],
    [
      "Anthropic messages with blocks",
      JSON.stringify([user, { role: "assistant", content: [{ type: "tool_use", id: "t", name: "n", input: {} }] }]),
      "anthropic",
      1,
    ],
    ["an Anthropic request with only text and a system prompt", JSON.stringify({ system: "be kind", messages: [user] }), "anthropic", 1],
    ["a tau-bench entry", JSON.stringify({ task_id: 1, traj: [user] }), "tau-bench", 1],
    ["tau-bench entries", readFixture("tau-bench-airline-sample.json"), "tau-bench", 6],
  ];
  it.each(cases)("recognises %s", (_, text, format, count) => {
    const result = parseConversations(text);
    expect(result.format).toBe(format);
    expect(result.conversations).toHaveLength(count);
    expect(result.conversations.every((conversation) => conversation.messages.length > 0)).toBe(true);
  });

  it("reads plain user/assistant text as OpenAI: both dialects agree on it", () => {
    expect(parseConversations(JSON.stringify({ messages: [user, assistant] })).format).toBe("openai");
  });

  it("obeys a forced format over detection", () => {
    const text = JSON.stringify({ messages: [user, assistant] });
    expect(parseConversations(text, { format: "anthropic" }).format).toBe("anthropic");
    expect(parseConversations(text, { format: "auto" }).format).toBe("openai");
    const error = importErrorOf(() => parseConversations(JSON.stringify({ traj: [user] }), { format: "openai" }));
    expect(error.issues.map(({ path, message }) => ({ path, message }))).toEqual([{ path: "messages", message: "messages must be an array of messages" }]);
  });

  it("accepts a byte-order mark", () => {
    expect(parseConversations(`\uFEFF${JSON.stringify([user])}`).conversations[0].messages).toEqual([user]);
  });

  it("is pure: the same text gives equal, independent results", () => {
    const text = readFixture("import/anthropic-task-41.json");
    const first = parseConversations(text);
    const second = parseConversations(text);
    expect(second).toEqual(first);
    first.conversations[0].messages[1].content = "changed";
    expect(second.conversations[0].messages[1].content).not.toBe("changed");
  });
});

describe("parseConversations refusals", () => {
  it.each(["", "  \n\t "])("refuses empty input %j", (text) => {
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([{ message: "the input is empty: paste or drop a conversation (JSON or JSONL)", path: "" }]);
  });

  it("refuses an empty array", () => {
    expect(importErrorOf(() => parseConversations("[]")).issues).toEqual([{ message: "the input is an empty array: there is nothing to import", path: "" }]);
  });

  it.each([
    ['{"foo": 1, "bar": 2}', "an object with keys foo, bar"],
    ["42", "a number"],
    ['"a conversation"', "a string"],
    ["null", "null"],
  ])("refuses an unknown format: %s", (text, found) => {
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([{ message: `${UNKNOWN_FORMAT_MESSAGE}; found ${found}`, path: "" }]);
    expect(error.message).toBe(`could not import: ${UNKNOWN_FORMAT_MESSAGE}; found ${found}`);
  });

  it("[IM-8] the refusal of an unknown format names every format the importer reads", () => {
    for (const label of Object.values(IMPORT_FORMAT_LABELS)) expect(UNKNOWN_FORMAT_MESSAGE).toContain(label);
    expect(UNKNOWN_FORMAT_MESSAGE).toContain("Claude Code session (JSONL)");
    expect(UNKNOWN_FORMAT_MESSAGE).toContain("tau-bench trajectories");
  });

  it("refuses text that is neither JSON nor JSONL with a syntax error", () => {
    expect(importErrorOf(() => parseConversations("User: hi\nAssistant: hello")).issues).toEqual([
      { message: "unexpected character 'U': expected a JSON value", path: "", line: 1, column: 1 },
    ]);
  });

  it("refuses pretty-printed documents one after another", () => {
    const text = `${JSON.stringify([user], null, 2)}\n${JSON.stringify([assistant], null, 2)}`;
    expect(importErrorOf(() => parseConversations(text)).issues).toEqual([
      { message: "unexpected content after the JSON value (JSONL needs one JSON value on each line)", path: "", line: 7, column: 1 },
    ]);
  });
});

describe("parseConversations size limit", () => {
  it("defaults to 20 MB", () => {
    expect(DEFAULT_MAX_IMPORT_BYTES).toBe(20 * 1024 * 1024);
  });

  it("refuses input over maxBytes with tooLarge, for a 413", () => {
    const text = JSON.stringify([user, assistant]);
    const error = importErrorOf(() => parseConversations(text, { maxBytes: 40 }));
    expect(error.tooLarge).toEqual({ bytes: text.length, limit: 40 });
    expect(error.message).toBe(`could not import: the input is ${text.length} bytes, over the 40 bytes import limit`);
  });

  it("counts UTF-8 bytes, not characters", () => {
    const text = JSON.stringify([{ role: "user", content: "é😀" }]);
    const bytes = new TextEncoder().encode(text).length;
    expect(parseConversations(text, { maxBytes: bytes }).conversations).toHaveLength(1);
    expect(importErrorOf(() => parseConversations(text, { maxBytes: bytes - 1 })).tooLarge).toEqual({ bytes, limit: bytes - 1 });
  });

  it("refuses over the default limit without parsing", () => {
    const text = "x".repeat(DEFAULT_MAX_IMPORT_BYTES + 1);
    const error = importErrorOf(() => parseConversations(text));
    expect(error.tooLarge).toEqual({ bytes: DEFAULT_MAX_IMPORT_BYTES + 1, limit: DEFAULT_MAX_IMPORT_BYTES });
    expect(error.issues[0].message).toBe("the input is 20 MB, over the 20 MB import limit");
    expect(ImportError.isInstance(error)).toBe(true);
  });
});
