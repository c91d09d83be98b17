import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations } from "./index";

const sample = readFixtureJson<{ traj: unknown[] }[]>("tau-bench-airline-sample.json");
const openAIRequest = readFixtureJson<{ tools: unknown[] }>("import/openai-request-task-41.json");
const parse = (value: unknown) => parseConversations(JSON.stringify(value));
const only = (value: unknown) => {
  const { conversations } = parse(value);
  expect(conversations).toHaveLength(1);
  expect(conversations[0].format).toBe("anthropic");
  return conversations[0];
};
const call = (id: string, name: string, input: unknown) => ({ id, type: "function", function: { name, arguments: JSON.stringify(input) } });

describe("Anthropic Messages import", () => {
  it("parses an Anthropic conversion of a tau-bench trajectory back to the original OpenAI messages", () => {
    const result = parseConversations(readFixture("import/anthropic-task-41.json"));
    expect(result.format).toBe("anthropic");
    const [conversation] = result.conversations;
    expect(conversation.messages).toEqual(sample[3].traj);
    expect(conversation.tools).toEqual(openAIRequest.tools);
    expect(conversation.source).toEqual({ model: "claude-sonnet-4-5", max_tokens: 1024 });
    expect(conversation.warnings).toEqual([]);
  });

  it("turns an assistant's tool_use blocks into one message with tool_calls and its text as content", () => {
    const conversation = only({
      messages: [
        { role: "user", content: "book it" },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "toolu_1", name: "search", input: { from: "JFK" } },
            { type: "tool_use", id: "toolu_2", name: "lookup", input: {} },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_3", name: "search", input: { from: "SEA" } }] },
      ],
    });
    expect(conversation.messages.slice(1)).toEqual([
      { role: "assistant", content: "Checking.", tool_calls: [call("toolu_1", "search", { from: "JFK" }), call("toolu_2", "lookup", {})] },
      { role: "assistant", content: null, tool_calls: [call("toolu_3", "search", { from: "SEA" })] },
    ]);
  });

  it("turns a user's tool_result blocks into tool messages in block order, then a user message for the text", () => {
    const conversation = only([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "a", name: "one", input: {} },
          { type: "tool_use", id: "b", name: "two", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "Here you go." },
          {
            type: "tool_result",
            tool_use_id: "b",
            content: [
              { type: "text", text: "second" },
              { type: "text", text: "part" },
            ],
          },
          { type: "tool_result", tool_use_id: "a", content: "failed", is_error: true },
          { type: "text", text: "Anything else?" },
        ],
      },
    ]);
    expect(conversation.messages.slice(1)).toEqual([
      {
        role: "tool",
        content: "second\npart",
        tool_call_id: "b",
        name: "two",
        parts: [
          { type: "text", text: "second" },
          { type: "text", text: "part" },
        ],
      },
      { role: "tool", content: "failed", tool_call_id: "a", name: "one", extras: { anthropic: { isError: true } } },
      {
        role: "user",
        content: "Here you go.\nAnything else?",
        parts: [
          { type: "text", text: "Here you go." },
          { type: "text", text: "Anything else?" },
        ],
      },
    ]);
  });

  it("keeps thinking, images and the system blocks as parts; the title comes from the user's words", () => {
    const conversation = only({
      system: [
        { type: "text", text: "Be kind." },
        { type: "text", text: "Be brief." },
      ],
      messages: [
        {
          role: "user",
          content: [
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
            { type: "text", text: "what is this?" },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hmm", signature: "sig" },
            { type: "text", text: "A cat." },
          ],
        },
      ],
    });
    expect(conversation.messages).toEqual([
      {
        role: "system",
        content: "Be kind.\nBe brief.",
        parts: [
          { type: "text", text: "Be kind." },
          { type: "text", text: "Be brief." },
        ],
      },
      {
        role: "user",
        content: "what is this?",
        parts: [
          { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
          { type: "text", text: "what is this?" },
        ],
      },
      {
        role: "assistant",
        content: "A cat.",
        parts: [
          { type: "reasoning", text: "hmm", signature: "sig" },
          { type: "text", text: "A cat." },
        ],
      },
    ]);
    expect(conversation.warnings).toEqual([]);
    expect(conversation.title).toBe("what is this?");
  });

  it("keeps cache marks", () => {
    const conversation = only({
      system: [{ type: "text", text: "policy", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] }],
    });
    expect(conversation.messages.map((message) => message.cache_control)).toEqual([{ type: "ephemeral" }, { type: "ephemeral" }]);
  });

  it("reads tools with input_schema and keeps server tools whole", () => {
    const conversation = only({
      system: "s",
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { name: "get_weather", description: "Weather.", input_schema: { type: "object", properties: { city: { type: "string" } } } },
        { type: "web_search_20250305", name: "web_search" },
      ],
    });
    expect(conversation.tools).toEqual([
      {
        type: "function",
        function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
      { type: "function", function: { name: "web_search" }, extras: { anthropic: { builtin: { type: "web_search_20250305", name: "web_search" } } } },
    ]);
    expect(conversation.warnings).toEqual([]);
  });

  it("is chosen when forced even without Anthropic markers", () => {
    const result = parseConversations(JSON.stringify([{ role: "user", content: "hi" }]), { format: "anthropic" });
    expect(result.format).toBe("anthropic");
  });

  const cases: [string, unknown, { path: string; message: string }[]][] = [
    [
      "a system role inside messages",
      { system: "s", messages: [{ role: "system", content: "x" }] },
      [{ path: "messages[0].role", message: 'an Anthropic message role must be "user" or "assistant" (put the system prompt in the top-level system field)' }],
    ],
    [
      "a tool_use block without input",
      [{ role: "assistant", content: [{ type: "tool_use", id: "t", name: "n" }] }],
      [{ path: "[0].content[0].input", message: "a tool_use block needs an input object" }],
    ],
    [
      "a tool_result block without tool_use_id",
      [{ role: "user", content: [{ type: "tool_result", content: "x" }] }],
      [{ path: "[0].content[0].tool_use_id", message: "a tool_result block needs a string tool_use_id" }],
    ],
    [
      "a tool_result in an assistant message",
      [{ role: "assistant", content: [{ type: "tool_result", tool_use_id: "t" }] }],
      [{ path: "[0].content[0]", message: "a tool_result block belongs in a user message" }],
    ],
    [
      "a tool_use in a user message",
      [{ role: "user", content: [{ type: "tool_use", id: "t", name: "n", input: {} }] }],
      [{ path: "[0].content[0]", message: "a tool_use block belongs in an assistant message" }],
    ],
    [
      "numeric content",
      { system: "s", messages: [{ role: "user", content: 5 }] },
      [{ path: "messages[0].content", message: "content must be a string or an array of content blocks" }],
    ],
    [
      "a text block without text",
      { system: "s", messages: [{ role: "user", content: [{ type: "text" }] }] },
      [{ path: "messages[0].content[0].text", message: "a text block needs a string text" }],
    ],
    [
      "a system that is neither text nor blocks",
      { system: 5, messages: [{ role: "user", content: [{ type: "text", text: "x" }] }] },
      [{ path: "system", message: "system must be a string or an array of text blocks" }],
    ],
    [
      "a tool without input_schema",
      { system: "s", messages: [{ role: "user", content: "x" }], tools: [{ name: "t" }] },
      [{ path: "tools[0].input_schema", message: "a tool's input_schema must be a JSON Schema object" }],
    ],
  ];
  it.each(cases)("reports %s", (_, value, expected) => {
    const error = importErrorOf(() => parseConversations(JSON.stringify(value), { format: "anthropic" }));
    expect(error.issues.map(({ path, message }) => ({ path, message }))).toEqual(expected);
  });

  it("locates an Anthropic issue on the line of its message", () => {
    const text = [
      '{"system": "s",',
      ' "messages": [',
      '  {"role": "user", "content": "hi"},',
      '  {"role": "assistant",',
      '   "content": [{"type": "tool_use", "id": "t", "name": "n", "input": 1}]}',
      "]}",
    ].join("\n");
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      {
        message: "a tool_use block needs an input object",
        path: "messages[1].content[0].input",
        line: 4,
        column: 3,
        messageIndex: 1,
        format: "Anthropic Messages",
      },
    ]);
  });
});

describe("Anthropic import of a conversation with thinking, images, documents and server tools", () => {
  const text = readFileSync(path.join(import.meta.dirname, "..", "..", "tests", "fixtures", "formats", "anthropic-thinking-image-document.json"), "utf8");

  it("keeps every part, titles by the user's words and warns only about the orphan tool result", () => {
    const [conversation] = parseConversations(text).conversations;
    expect(conversation.title).toBe("What's the weather in Paris, and does the contract mention…");
    const parts = conversation.messages.flatMap((message) => message.parts ?? []).map((part) => part.type);
    expect(parts.filter((type) => type === "reasoning")).toHaveLength(2);
    expect(parts.filter((type) => type === "image" || type === "document")).toHaveLength(3);
    expect(parts.filter((type) => type === "provider")).toHaveLength(2);
    expect(conversation.messages[0].cache_control).toEqual({ type: "ephemeral" });
    expect(conversation.warnings.map((warning) => warning.code)).toEqual(["orphan-tool-result"]);
  });
});
