// Gemini CLI's files: a recorded session, a /chat share export, a /chat save checkpoint.
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const sessionText = readFixture("formats/gemini-cli-session.json");
const shareText = readFixture("formats/gemini-cli-chat-share.json");
const session = parseConversations(sessionText).conversations[0];
const share = parseConversations(shareText).conversations[0];

describe("Gemini CLI session", () => {
  it("[IM-1] is detected by its sessionId, projectHash and messages", () => {
    expect(parseConversations(sessionText).format).toBe("gemini-cli");
    expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant", "tool", "user", "assistant"]);
  });

  it("[IM-2] keeps each tool call with its recorded result, paired by the call's id", () => {
    const calls = session.messages[1].tool_calls ?? [];
    expect(calls.map((call) => [call.id, call.function.name])).toEqual([
      ["read_file-1762247709604-8c1f2a9d03b4e", "read_file"],
      ["run_shell_command-1762247709605-f03d7e21c9a8b", "run_shell_command"],
    ]);
    expect(session.messages.slice(2, 4).map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
    expect(session.messages[5].content).toBe(JSON.stringify({ error: "[Operation Cancelled] Reason: User did not allow tool call" }));
  });

  it("[IM-2] keeps the thoughts as reasoning, subject in bold as the model wrote it", () => {
    expect(session.messages[1].parts?.[0]).toEqual({
      type: "reasoning",
      text: "**Planning the Investigation**\n\nI need the test script from package.json and the actual failure output, so I'll read the file and run the tests together.",
    });
  });

  it("[IM-10] keeps each message's time, model and tokens, each result's time, and the session's id", () => {
    expect(session.facts?.[0]).toEqual({ at: "2025-11-04T09:15:02.118Z" });
    expect(session.facts?.[1]).toMatchObject({
      at: "2025-11-04T09:15:09.604Z",
      model: "gemini-2.5-pro",
      usage: { input: 8421, cacheRead: 0, output: 249, reasoning: 188 },
    });
    expect(session.facts?.[3]).toEqual({ at: "2025-11-04T09:15:12.388Z" });
    expect(session.facts?.[7]?.usage).toMatchObject({ input: 1109, cacheRead: 8192, output: 58 });
    expect(session.session).toEqual({ agent: "gemini-cli", sessionId: "3f6c2b1e-8d4a-4c7e-9b2f-5a1d0e9c7b44" });
    expect(session.source).toMatchObject({ projectHash: expect.stringMatching(/^c0ffee/), startTime: "2025-11-04T09:15:02.118Z" });
  });

  it("[IM-3] skips the CLI's notices, answers a call without a result with its status, and drops repeated responses", () => {
    expect(session.warnings.map((warning) => [warning.code, warning.message])).toEqual([["entry-skipped", "skipped the CLI's own notices (info ×1)"]]);
    const record = JSON.parse(sessionText) as { messages: Record<string, unknown>[] };
    const [, first] = record.messages;
    const calls = first.toolCalls as Record<string, unknown>[];
    delete calls[1].result;
    const repeat = {
      id: "u-repeat",
      timestamp: "2025-11-04T09:15:13.000Z",
      type: "user",
      content: [{ functionResponse: { id: calls[0].id, name: "read_file", response: {} } }],
    };
    record.messages.splice(2, 0, repeat);
    const changed = parseConversations(JSON.stringify(record)).conversations[0];
    expect(changed.messages[3].content).toBe('{"status":"success"}');
    expect(changed.messages[4].role).toBe("assistant");
    expect(changed.warnings.map((warning) => warning.code)).toEqual(["part-approximated", "part-dropped", "entry-skipped"]);
  });
});

describe("Gemini CLI /chat share and /chat save", () => {
  it("[IM-1] tells the CLI's history from a plain Gemini contents array", () => {
    expect(parseConversations(shareText).format).toBe("gemini-cli");
    expect(parseConversations(readFixture("formats/gemini-contents.json")).format).toBe("gemini");
  });

  it("[IM-2] gives each id-less call the id of the response at its position, so every call keeps its result", () => {
    const calls = share.messages.flatMap((message) => message.tool_calls ?? []).map((call) => call.id);
    expect(calls).toEqual(["list_directory-1762247709604-8c1f2a9d03b4e", "read_file-1762247709611-3a7e0c5d9f12", "read_file-1762247715230-b41e9d07c6a5"]);
    expect(share.messages.filter((message) => message.role === "tool").map((message) => message.tool_call_id)).toEqual(calls);
    expect(share.warnings.map((warning) => warning.code)).toEqual(["paired-by-position"]);
  });

  it("[IM-3] says the results were paired by position, at the first call's message", () => {
    expect(share.warnings[0]).toMatchObject({
      message:
        "3 function calls carry no id (Gemini CLI writes it on the response only): each took the id of the functionResponse at the same position in the next turn",
      messageIndex: 2,
      path: "[2]",
    });
  });

  it("[IM-10] names the agent and the directory the setup turn gives, and titles by the first request", () => {
    expect(share.session).toEqual({ agent: "gemini-cli", cwd: "/home/dev/greeter" });
    expect(share.title).toBe("List the project and read the test, then tell me what greet…");
  });

  it("[IM-1] reads a /chat save checkpoint {history, authType}, keeping the auth type", () => {
    const checkpoint = { history: JSON.parse(shareText) as unknown[], authType: "oauth-personal" };
    const result = parseConversations(JSON.stringify(checkpoint));
    expect(result.format).toBe("gemini-cli");
    expect(result.conversations[0].source).toEqual({ authType: "oauth-personal" });
    expect(result.conversations[0].warnings[0].path).toBe("history[2]");
  });
});
