// Cline's task files: api_conversation_history.json (tagged and native tool uses) and ui_messages.json.
import { describe, expect, it } from "vitest";
import { readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const real = parseConversations(readFixture("formats/cline-api-conversation-history.json")).conversations[0];
const tagged = parseConversations(readFixture("formats/cline-xml-tools-api-history.json")).conversations[0];
const taggedSource = JSON.parse(readFixture("formats/cline-xml-tools-api-history.json")) as unknown[];
const panel = parseConversations(readFixture("formats/cline-ui-messages.json")).conversations[0];

const codes = (warnings: readonly { code: string }[]) => warnings.map((warning) => warning.code);

describe("Cline api_conversation_history.json", () => {
  it("[IM-1] is told from a plain Anthropic conversation by Cline's own markers", () => {
    const plain = [
      { role: "user", content: [{ type: "text", text: "hi" }] },
      { role: "assistant", content: [{ type: "text", text: "<read_file>\n<path>a</path>\n</read_file>" }] },
    ];
    const other = parseConversations(JSON.stringify(plain));
    expect(other.format).not.toBe("cline");
    expect(other.conversations[0].messages[1].tool_calls).toBeUndefined();
    expect(real.format).toBe("cline");
  });

  it("[IM-2] pairs each outcome text with the native call at its position, the not-executed ones included", () => {
    const calls = real.messages[1].tool_calls?.map((call) => call.id) ?? [];
    expect(calls).toHaveLength(4);
    expect(real.messages.slice(2, 6).map((message) => message.tool_call_id)).toEqual(calls);
    expect(real.messages[2].content).toMatch(/^\[read_file for 'ActionSystem.cs'\] Result:\nusing System;/);
    expect(real.messages[3].content).toMatch(/^Tool \[read_file\] was not executed because a tool has already been used/);
    expect(real.messages[6]).toMatchObject({ role: "user" });
    expect(real.messages[6].content).toMatch(/^<environment_details>/);
  });

  it("[IM-2] turns tool tags into calls, <thinking> into reasoning and keeps the text between them", () => {
    const turn = tagged.messages[4];
    expect(turn.parts?.map((part) => part.type)).toEqual(["reasoning"]);
    expect(turn.tool_calls?.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ["cline_call_3_0", "execute_command", { command: "npm test", requires_approval: "false" }],
      [
        "cline_call_3_1",
        "write_to_file",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the file written is JavaScript with a template literal
        { path: "src/greet.js", content: "function greet(name) {\n  return `Hello, ${name}!`;\n}\n\nmodule.exports = { greet };" },
      ],
    ]);
    expect(tagged.messages[8]).toMatchObject({ role: "assistant", content: 'The test expects "Hello, Ada!". I\'ll write the new greeting.' });
    expect(tagged.messages[1].parts?.[0]).toEqual({ type: "reasoning", text: "The task names src/greet.js. I should read it before changing anything." });
  });

  it("[IM-2] gives an outcome the blocks after its header, up to the next outcome or the environment details", () => {
    const [output, skipped] = [tagged.messages[5], tagged.messages[6]];
    expect(output).toMatchObject({ role: "tool", tool_call_id: "cline_call_3_0" });
    expect(output.parts?.map((part) => (part.type === "text" ? part.text.split("\n")[0] : part.type))).toEqual([
      "[execute_command for 'npm test'] Result:",
      "Command executed.",
    ]);
    expect(skipped).toMatchObject({ role: "tool", tool_call_id: "cline_call_3_1" });
    expect(skipped.content).toMatch(/^Tool \[write_to_file\] was not executed/);
  });

  it("[IM-2] generates the same ids on every import of the same file", () => {
    const again = parseConversations(readFixture("formats/cline-xml-tools-api-history.json")).conversations[0];
    expect(again.messages.flatMap((message) => message.tool_calls ?? [])).toEqual(tagged.messages.flatMap((message) => message.tool_calls ?? []));
  });

  it("[IM-3] says the ids were generated and the results paired by position, at the first message concerned", () => {
    expect(tagged.warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([
      ["call-id-generated", 1],
      ["paired-by-position", 2],
    ]);
    expect(tagged.warnings[1].message).toBe(
      '6 tool results were written as user text ("[tool] Result:"): each answers the call at the same position in the turn before',
    );
  });

  it("[IM-3] keeps the calls of a task that ended on them with an empty result, and says so", () => {
    const ended = parseConversations(JSON.stringify(taggedSource.slice(0, 10))).conversations[0];
    const last = ended.messages.at(-1);
    expect(last).toMatchObject({ role: "tool", tool_call_id: "cline_call_9_0", content: "" });
    expect(ended.messages.at(-2)?.tool_calls?.[0].function.name).toBe("replace_in_file");
    expect(ended.warnings.find((warning) => warning.code === "part-approximated")).toMatchObject({
      message: "1 tool calls got no result before the task moved on or ended: each was given an empty result so it is kept",
      messageIndex: ended.messages.length - 1,
    });
    expect(codes(ended.warnings)).not.toContain("unanswered-tool-call");
  });

  it("[IM-3] reports text inside a tool tag that is not a parameter, and keeps an unclosed tag as text", () => {
    const messages = [
      { role: "user", content: "<task>\nlist\n</task>" },
      { role: "assistant", content: "<list_files>\n<path>.</path>\nplease\n</list_files>" },
      { role: "user", content: [{ type: "text", text: "[list_files for '.'] Result:\na.ts" }] },
      { role: "assistant", content: "<attempt_completion>\n<result>done" },
    ];
    const conversation = parseConversations(JSON.stringify(messages)).conversations[0];
    expect(conversation.warnings.find((warning) => warning.code === "part-dropped")?.message).toMatch(/^1 tool tags held text outside their parameters/);
    expect(conversation.messages.at(-1)).toMatchObject({ role: "assistant", content: "<attempt_completion>\n<result>done" });
    expect(conversation.title).toBe("list");
  });

  it("[IM-10] keeps each turn's model, usage and the workspace, and titles the task by its <task>", () => {
    expect(real.facts?.[1]).toMatchObject({
      model: "claude-opus-4-5-20251101",
      usage: { input: 10, cacheRead: 8972, output: 814 },
    });
    expect(real.session).toEqual({ agent: "cline", cwd: "/workspaces/Online-Card-Architecture" });
    expect(real.title).toBe("You have been given a Dockerized codebase for an unfinished…");
    expect(real.warnings.find((warning) => warning.code === "part-approximated")?.message).toMatch(/tokens\.cached/);
  });

  it("[IM-2] leaves the tool_result blocks of a version with native results as they are", () => {
    const messages = [
      { role: "user", content: [{ type: "text", text: "<task>\nread a\n</task>" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", call_id: "c1", content: "[read_file for 'a'] Result:\nA" }] },
    ];
    const conversation = parseConversations(JSON.stringify(messages)).conversations[0];
    expect(conversation.format).toBe("cline");
    expect(conversation.messages[2]).toMatchObject({ role: "tool", tool_call_id: "toolu_1", content: "[read_file for 'a'] Result:\nA" });
    expect(codes(conversation.warnings)).toEqual([]);
  });

  it("[IM-10] keeps a newer version's message time and response id", () => {
    const messages = [
      { role: "user", content: [{ type: "text", text: "<task>\nhi\n</task>" }], ts: 1759400100000 },
      { role: "assistant", content: [{ type: "text", text: "Hello." }], ts: 1759400103000, id: "msg_01abc", modelInfo: { modelId: "claude-sonnet-4-5" } },
    ];
    const conversation = parseConversations(JSON.stringify(messages)).conversations[0];
    expect(conversation.facts).toEqual([
      { at: "2025-10-02T10:15:00.000Z" },
      { at: "2025-10-02T10:15:03.000Z", model: "claude-sonnet-4-5", responseId: "msg_01abc" },
    ]);
  });
});

describe("Cline ui_messages.json", () => {
  it("[IM-1] is detected as the panel's file", () => {
    expect(panel.format).toBe("cline-ui");
    expect(panel.messages.map((message) => message.role).slice(0, 4)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("[IM-2] takes each tool's result from the next request's text, as the model got it", () => {
    expect(panel.messages[1].tool_calls?.[0].function).toEqual({
      name: "read_file",
      arguments: JSON.stringify({
        path: "ActionSystem.cs",
        content: "/workspaces/Online-Card-Architecture/ActionSystem.cs",
        operationIsLocatedInWorkspace: true,
      }),
    });
    expect(panel.messages[2].content).toMatch(/^\[read_file for 'ActionSystem.cs'\] Result:\nusing System;/);
    expect(panel.messages[2].content).not.toMatch(/Tool \[read_file\] was not executed/);
  });

  it("[IM-10] keeps each request's time, model and reported usage, and adds up the cost", () => {
    expect(panel.facts?.[0]).toEqual({ at: "2026-01-22T06:47:34.625Z" });
    expect(panel.facts?.[1]).toMatchObject({
      at: "2026-01-22T06:47:35.442Z",
      model: "claude-opus-4-5-20251101",
      usage: { input: 10, cacheRead: 0, cacheWrite5m: 8972, output: 814 },
    });
    expect(panel.source?.cost).toBeGreaterThan(0.2);
    expect(panel.session).toEqual({ agent: "cline", cwd: "/workspaces/Online-Card-Architecture" });
  });

  it("[IM-3] counts the panel entries that hold no message", () => {
    expect(panel.warnings.find((warning) => warning.code === "entry-skipped")?.message).toBe(
      "skipped 14 panel entries that hold no message (checkpoint_created ×7, task_progress ×6, api_req_started without an answer ×1)",
    );
  });

  it("[IM-2] reads a command with its outcome, a question with its answer, and the completion", () => {
    const outcome = "[execute_command for 'npm test'] Result:\nCommand executed.\nOutput:\n1 passing";
    const entries = [
      { ts: 1, type: "say", say: "task", text: "run the tests", images: ["data:image/png;base64,iVBORw0KGgo="] },
      { ts: 2, type: "say", say: "api_req_started", text: JSON.stringify({ request: "<task>\nrun the tests\n</task>", tokensIn: 5, tokensOut: 7 }) },
      { ts: 3, type: "ask", ask: "command", text: "npm test" },
      { ts: 4, type: "ask", ask: "command_output", text: "1 passing" },
      { ts: 5, type: "say", say: "api_req_started", text: JSON.stringify({ request: outcome }) },
      { ts: 6, type: "ask", ask: "followup", text: JSON.stringify({ question: "Commit?", options: ["yes", "no"] }) },
      { ts: 7, type: "say", say: "user_feedback", text: "yes" },
      { ts: 8, type: "say", say: "completion_result", text: "Tests pass." },
    ];
    const conversation = parseConversations(JSON.stringify(entries)).conversations[0];
    expect(conversation.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(conversation.messages[0].parts?.map((part) => part.type)).toEqual(["text", "image"]);
    expect(conversation.messages[1].tool_calls?.[0].function).toEqual({ name: "execute_command", arguments: '{"command":"npm test"}' });
    expect(conversation.messages[2].content).toBe(outcome);
    expect(conversation.messages[3]).toMatchObject({ content: "Tests pass." });
    expect(conversation.messages[3].tool_calls?.[0].function.name).toBe("ask_followup_question");
    expect(conversation.messages[4].content).toBe("yes");
  });

  it("[IM-2] falls back to what the panel showed when no request follows", () => {
    const entries = [
      { ts: 1, type: "say", say: "task", text: "run the tests" },
      { ts: 2, type: "say", say: "api_req_started", text: "{}" },
      { ts: 3, type: "say", say: "command", text: "npm test" },
      { ts: 4, type: "say", say: "command_output", text: "1 passing" },
    ];
    expect(parseConversations(JSON.stringify(entries)).conversations[0].messages.at(-1)).toMatchObject({ role: "tool", content: "1 passing" });
  });
});
