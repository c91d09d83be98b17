import { describe, expect, it } from "vitest";
import { FormatError } from "../errors";
import { readAnthropicRequest, readAnthropicResponse, writeAnthropicRequest } from "../index";

describe("Anthropic Messages reader and writer", () => {
  it("[F-A3] splits a user turn's tool results into tool messages before the user's own words, and joins them back", () => {
    const body = {
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "t1", name: "a", input: {} },
            { type: "tool_use", id: "t2", name: "b", input: { x: 1 } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", content: "one" },
            { type: "tool_result", tool_use_id: "t2", content: "two", is_error: true },
            { type: "text", text: "thanks" },
          ],
        },
      ],
    };
    const read = readAnthropicRequest(body);
    expect(read.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    // F-5: a result is named after the call it answers.
    expect(read.messages[3]).toEqual({ role: "tool", content: "two", tool_call_id: "t2", name: "b", extras: { anthropic: { isError: true } } });
    expect(writeAnthropicRequest(read).value).toEqual(body);
  });

  it("[F-A4] keeps thinking with its signature and redacted thinking, opaque, in order", () => {
    const body = {
      messages: [
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "answer" },
          ],
        },
      ],
    };
    const read = readAnthropicRequest(body);
    expect(read.messages[0].parts).toEqual([
      { type: "reasoning", text: "hmm", signature: "sig" },
      { type: "reasoning", text: "", redacted: "opaque" },
      { type: "text", text: "answer" },
    ]);
    expect(read.messages[0].content).toBe("answer");
    expect(writeAnthropicRequest(read).value).toEqual(body);
  });

  it("[F-A5] keeps a server tool's call and result whole in the assistant's turn, out of the tool pairing", () => {
    const body = {
      messages: [
        {
          role: "assistant",
          content: [
            { type: "server_tool_use", id: "srv_1", name: "web_search", input: { query: "q" } },
            { type: "web_search_tool_result", tool_use_id: "srv_1", content: [] },
            { type: "text", text: "found" },
          ],
        },
      ],
    };
    const read = readAnthropicRequest(body);
    expect(read.messages[0].tool_calls).toBeUndefined();
    expect(read.messages[0].parts?.map((part) => part.type)).toEqual(["provider", "provider", "text"]);
    expect(writeAnthropicRequest(read).value).toEqual(body);
  });

  it("[F-A2] holds the last block's cache mark as the message's, a tool_use's included", () => {
    const body = {
      system: [{ type: "text", text: "s", cache_control: { type: "ephemeral" } }],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "a", cache_control: { type: "ephemeral" } },
            { type: "text", text: "b" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "c" },
            { type: "tool_use", id: "t", name: "f", input: {}, cache_control: { type: "ephemeral", ttl: "1h" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "r", cache_control: { type: "ephemeral" } }] },
      ],
    };
    const read = readAnthropicRequest(body);
    expect(read.messages[0]).toEqual({ role: "system", content: "s", cache_control: { type: "ephemeral" } });
    expect(read.messages[1].parts?.[0]).toEqual({ type: "text", text: "a", cacheControl: { type: "ephemeral" } });
    expect(read.messages[2].cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
    expect(read.messages[3].cache_control).toEqual({ type: "ephemeral" });
    expect(writeAnthropicRequest(read).value).toEqual(body);
  });

  it("[F-A6] writes a system message after the start as a user turn, with a warning", () => {
    const written = writeAnthropicRequest({
      messages: [
        { role: "user", content: "a" },
        { role: "system", content: "b" },
      ],
    });
    expect(written.value.messages).toEqual([
      { role: "user", content: "a" },
      { role: "user", content: [{ type: "text", text: "b" }] },
    ]);
    expect(written.warnings).toMatchObject([{ code: "system-moved", messageIndex: 1, path: "messages[1]" }]);
  });

  it("[F-9] writes JSON-text arguments as the same object, and arguments that are not a JSON object as {input}, with a warning", () => {
    const written = writeAnthropicRequest({
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "t1", type: "function", function: { name: "f", arguments: '{ "city": "Paris", "days": [1, 2] }' } },
            { id: "t2", type: "function", function: { name: "g", arguments: "not json" } },
          ],
        },
        { role: "tool", tool_call_id: "t1", content: "ok" },
        { role: "tool", tool_call_id: "t2", content: "ok" },
      ],
    });
    const uses = (written.value.messages as { content: { type: string; input?: unknown }[] }[])[1].content.filter((block) => block.type === "tool_use");
    expect(uses.map((block) => block.input)).toEqual([{ city: "Paris", days: [1, 2] }, { input: "not json" }]);
    expect(written.warnings).toMatchObject([{ code: "part-approximated", messageIndex: 1, path: "messages[1].tool_calls[1]" }]);
    const back = readAnthropicRequest(written.value).messages[1].tool_calls!.map((call) => call.function.arguments);
    expect(JSON.parse(back[0])).toEqual({ city: "Paris", days: [1, 2] });
    expect(back[0]).toBe(JSON.stringify({ city: "Paris", days: [1, 2] }));
  });

  it("[F-A1] refuses a system role, a misplaced tool_result and a tool_use without input, each located", () => {
    const body = {
      messages: [
        { role: "system", content: "x" },
        { role: "assistant", content: [{ type: "tool_result", tool_use_id: "t" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f" }] },
      ],
    };
    expect(() => readAnthropicRequest(body)).toThrow(FormatError);
    try {
      readAnthropicRequest(body);
    } catch (error) {
      expect((error as FormatError).issues.map((issue) => [issue.pathText, issue.messageIndex])).toEqual([
        ["messages[0].role", 0],
        ["messages[1].content[0]", 1],
        ["messages[2].content[0].input", 2],
      ]);
    }
  });

  it("reads a response's content as one assistant message", () => {
    const read = readAnthropicResponse({ id: "msg_1", role: "assistant", content: [{ type: "text", text: "hi" }], stop_reason: "end_turn" });
    expect(read.messages).toEqual([{ role: "assistant", content: "hi" }]);
  });

  it("[F-T1] keeps tools' input_schema and cache marks, and server tools whole", () => {
    const tools = [
      { name: "f", description: "d", input_schema: { type: "object" }, cache_control: { type: "ephemeral" } },
      { type: "web_search_20250305", name: "web_search", max_uses: 5 },
    ];
    const read = readAnthropicRequest({ messages: [{ role: "user", content: "x" }], tools });
    expect(read.tools?.[0]).toEqual({
      type: "function",
      function: { name: "f", description: "d", parameters: { type: "object" } },
      cache_control: { type: "ephemeral" },
    });
    expect(writeAnthropicRequest(read).value.tools).toEqual(tools);
  });
});
