import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations } from "./index";

const sample = readFixtureJson<{ traj: unknown[] }[]>("tau-bench-airline-sample.json");

describe("JSONL import", () => {
  it("reads one message a line as one conversation", () => {
    const result = parseConversations(readFixture("import/openai-messages-task-41.jsonl"), { filename: "task-41.jsonl" });
    expect(result.format).toBe("jsonl");
    expect(result.conversations).toHaveLength(1);
    expect(result.conversations[0]).toMatchObject({ title: "task-41", format: "jsonl", warnings: [] });
    expect(result.conversations[0].messages).toEqual(sample[3].traj);
  });

  it("reads one {messages} request a line as one conversation each", () => {
    const result = parseConversations(readFixture("import/openai-requests.jsonl"), { filename: "runs.jsonl" });
    expect(result.conversations.map((conversation) => conversation.title)).toEqual(["runs #1", "runs #2", "runs #3"]);
    expect(result.conversations.map((conversation) => conversation.messages)).toEqual([sample[1].traj, sample[3].traj, sample[5].traj]);
    expect(result.conversations.every((conversation) => conversation.source?.model === "gpt-4o")).toBe(true);
  });

  it("skips blank lines and tolerates CRLF line ends", () => {
    const text = '{"role":"user","content":"hi"}\r\n\r\n{"role":"assistant","content":"hello"}\r\n';
    expect(parseConversations(text).conversations[0].messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  it("reads tau-bench entries a line", () => {
    const text = sample
      .slice(4)
      .map((entry) => JSON.stringify(entry))
      .join("\n");
    const result = parseConversations(text);
    expect(result.format).toBe("tau-bench");
    expect(result.conversations.map((conversation) => conversation.title)).toEqual([
      "tau-bench airline task 27 (trial 2, reward 1)",
      "tau-bench airline task 44 (trial 3, reward 0)",
    ]);
  });

  it("splits a single line when forced", () => {
    const result = parseConversations('{"role":"user","content":"hi"}', { format: "jsonl" });
    expect(result.format).toBe("jsonl");
    expect(result.conversations[0].messages).toEqual([{ role: "user", content: "hi" }]);
  });

  it("reports a syntax error on every broken line with its line and column", () => {
    const error = importErrorOf(() => parseConversations(readFixture("import/malformed-lines.jsonl")));
    expect(error.issues).toEqual([
      { message: "expected a property name after ',' (trailing commas are not allowed)", path: "", line: 3, column: 514 },
      { message: "property names must use double quotes, not single quotes", path: "", line: 5, column: 304 },
    ]);
    expect(error.message).toBe(
      [
        "could not import: 2 problems",
        "- line 3, column 514: expected a property name after ',' (trailing commas are not allowed)",
        "- line 5, column 304: property names must use double quotes, not single quotes",
      ].join("\n"),
    );
  });

  it("locates a validation error on its line, with the record index as path", () => {
    const text = ['{"role":"user","content":"hi"}', "", '{"role":"tool","content":"x"}'].join("\n");
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([{ message: "a tool message needs a string tool_call_id", path: "[1].tool_call_id", line: 3, column: 1, messageIndex: 1 }]);
  });

  it("locates an error inside a request line at the message's column", () => {
    const text = ['{"messages":[{"role":"user","content":"a"}]}', '{"messages":[{"role":"user","content":"b"},{"role":"bot","content":"c"}]}'].join("\n");
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      {
        message: 'unknown role "bot": expected system, user, assistant or tool',
        path: "[1].messages[1].role",
        line: 2,
        column: 44,
        messageIndex: 1,
        conversationIndex: 1,
      },
    ]);
  });

  it("refuses a conversation line among message lines", () => {
    const text = ['{"role":"user","content":"hi"}', '{"messages":[]}'].join("\n");
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      {
        message: "this line is not a message, though line 1 is one: JSONL needs one message on every line or one conversation on every line",
        path: "[1]",
        line: 2,
        column: 1,
      },
    ]);
  });

  it("refuses a line that is no conversation among conversation lines", () => {
    const text = ['{"messages":[{"role":"user","content":"a"}]}', "42"].join("\n");
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      {
        message: "this line is not a conversation: expected a {messages} request, a tau-bench {traj} entry or an array of messages on every line",
        path: "[1]",
        line: 2,
        column: 1,
        conversationIndex: 1,
      },
    ]);
  });
});
