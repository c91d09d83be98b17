import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture, readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations } from "./index";

const request = readFixtureJson<{ messages: unknown[]; tools: unknown[] }>("import/openai-request-task-41.json");
const parse = (value: unknown) => parseConversations(JSON.stringify(value));
const only = (value: unknown) => {
  const { conversations } = parse(value);
  expect(conversations).toHaveLength(1);
  return conversations[0];
};

describe("OpenAI chat import", () => {
  it("reads a whole chat-completions request: messages, tools, and the rest as source", () => {
    const result = parseConversations(readFixture("import/openai-request-task-41.json"), { filename: "openai-request-task-41.json" });
    expect(result.format).toBe("openai");
    const [conversation] = result.conversations;
    expect(conversation.messages).toEqual(request.messages);
    expect(conversation.tools).toEqual(request.tools);
    expect(conversation.source).toEqual({ model: "gpt-4o", temperature: 0 });
    expect(conversation.title).toBe("openai-request-task-41");
    expect(conversation.warnings).toEqual([]);
  });

  it("reads a bare array of messages", () => {
    const conversation = only(request.messages);
    expect(conversation.format).toBe("openai");
    expect(conversation.messages).toEqual(request.messages);
    expect(conversation.source).toBeUndefined();
  });

  it("reads an array of requests as several conversations", () => {
    const result = parse([{ messages: [{ role: "user", content: "one" }] }, { messages: [{ role: "user", content: "two" }] }]);
    expect(result.conversations.map((conversation) => conversation.title)).toEqual(["one", "two"]);
  });

  it("reads a single message object as a one-message conversation", () => {
    expect(only({ role: "user", content: "hello" }).messages).toEqual([{ role: "user", content: "hello" }]);
  });

  it("titles by the first user words when there is no file name", () => {
    const long = "I would like to change the flights on my reservation to an earlier date, please, and keep the cabin";
    expect(
      only([
        { role: "system", content: "policy" },
        { role: "user", content: long },
      ]).title,
    ).toBe("I would like to change the flights on my reservation to an…");
    expect(only([{ role: "assistant", content: "hi" }]).title).toBe("Imported conversation");
  });

  it("joins text content parts and keeps null content", () => {
    const conversation = only([
      {
        role: "user",
        content: [
          { type: "text", text: "first" },
          { type: "text", text: "second" },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: [{ type: "text", text: "done" }] },
    ]);
    expect(conversation.messages.map((message) => message.content)).toEqual(["first\nsecond", null, "done"]);
    expect(conversation.warnings).toEqual([]);
  });

  it("keeps image parts as typed parts, the text alone in content, without a warning", () => {
    const conversation = only([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
    ]);
    expect(conversation.messages[0]).toEqual({
      role: "user",
      content: "look",
      parts: [
        { type: "text", text: "look" },
        { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
      ],
    });
    expect(conversation.warnings).toEqual([]);
  });

  it("converts legacy function_call and function messages to tool calls with warnings", () => {
    const conversation = only({
      messages: [
        { role: "user", content: "weather?" },
        { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        { role: "function", name: "get_weather", content: "sunny" },
        { role: "assistant", content: "It is sunny." },
      ],
    });
    expect(conversation.messages).toEqual([
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "legacy_call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        extras: { openai: { functionCall: true } },
      },
      { role: "tool", content: "sunny", tool_call_id: "legacy_call_1", name: "get_weather", extras: { openai: { role: "function" } } },
      { role: "assistant", content: "It is sunny." },
    ]);
    expect(conversation.warnings.map((warning) => [warning.code, warning.messageIndex, warning.path])).toEqual([
      ["legacy-function-call", 1, "messages[1].function_call"],
      ["legacy-function-call", 2, "messages[2]"],
    ]);
  });

  it("stringifies object arguments and adds a missing type, with warnings", () => {
    const conversation = only([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", function: { name: "f", arguments: { a: 1 } } }] },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ]);
    expect(conversation.messages[1].tool_calls).toEqual([{ id: "c1", type: "function", function: { name: "f", arguments: '{"a":1}' } }]);
    expect(conversation.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ["arguments-stringified", "[1].tool_calls[0]"],
      ["tool-type-added", "[1].tool_calls[0]"],
    ]);
  });

  it("keeps developer messages as system messages marked to be written back as developer", () => {
    const conversation = only([
      { role: "developer", content: "be brief" },
      { role: "user", content: "hi" },
    ]);
    expect(conversation.messages[0]).toEqual({ role: "system", content: "be brief", extras: { openai: { role: "developer" } } });
    expect(conversation.warnings).toEqual([]);
  });

  it("keeps an answer's audio as a part and fields the canonical message does not hold as extras", () => {
    const conversation = only([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello", refusal: null, annotations: [], audio: { id: "a1" } },
    ]);
    expect(conversation.messages[1]).toEqual({
      role: "assistant",
      content: "hello",
      parts: [
        { type: "text", text: "hello" },
        { type: "audio", source: { type: "file", fileId: "a1" } },
      ],
      extras: { openai: { fields: { annotations: [] } } },
    });
    expect(conversation.warnings).toEqual([]);
  });

  it("reads flat Responses tools and legacy functions, and keeps built-in tools whole", () => {
    const conversation = only({
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", name: "flat", parameters: { type: "object" } }, { type: "web_search" }],
      functions: [{ name: "legacy", description: "old" }],
    });
    expect(conversation.tools).toEqual([
      { type: "function", function: { name: "flat", parameters: { type: "object" } } },
      { type: "function", function: { name: "web_search" }, extras: { openai: { builtin: { type: "web_search" } } } },
      { type: "function", function: { name: "legacy", description: "old" }, extras: { openai: { legacyFunction: true } } },
    ]);
    expect(conversation.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ["shape-normalised", "tools[0]"],
      ["legacy-function-call", "functions"],
    ]);
  });

  it("[IM-7] keeps a tool result without a call and warns with the repair sanitizeHistory makes when it is stored", () => {
    const conversation = parseConversations(readFixture("import/orphan-tool-result.json")).conversations[0];
    expect(conversation.messages).toHaveLength(15);
    expect(conversation.messages[6].role).toBe("tool");
    expect(conversation.warnings).toEqual([
      {
        code: "orphan-tool-result",
        message: "tool result 'call_Mxn2CmKacuvxn7cEyJA5chIF' has no assistant tool call right before it; dropped",
        messageIndex: 6,
      },
    ]);
  });

  it("[IM-7] warns about a tool call whose result never came", () => {
    const conversation = only([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "user", content: "hello?" },
    ]);
    expect(conversation.warnings).toEqual([
      { code: "unanswered-tool-call", message: "tool call 'c1' (f) never got a result; removed", messageIndex: 1 },
      { code: "empty-assistant-dropped", message: "nothing left of the assistant message; dropped", messageIndex: 1 },
    ]);
  });

  it("[IM-7] calls a second result for an answered call a duplicate, not an orphan", () => {
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } };
    const conversation = only([
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "c1", content: "one" },
      { role: "tool", tool_call_id: "c1", content: "again" },
    ]);
    expect(conversation.warnings).toEqual([
      { code: "duplicate-tool-result", message: "tool call 'c1' of message 1 is already answered; dropped the extra result", messageIndex: 3 },
    ]);
  });

  it("does not mutate or keep references into what it parsed: messages are fresh objects", () => {
    const messages = [{ role: "assistant", content: "x", tool_calls: [], extra: 1 }];
    const text = JSON.stringify(messages);
    const conversation = parseConversations(text).conversations[0];
    conversation.messages[0].content = "changed";
    expect(JSON.stringify(messages)).toBe(text);
    expect(conversation.messages[0]).not.toHaveProperty("tool_calls");
  });
});

describe("OpenAI validation", () => {
  it("reports every structural error of a request with message index, path and line", () => {
    const error = importErrorOf(() => parseConversations(readFixture("import/malformed-messages.json")));
    expect(error.issues).toEqual([
      {
        message: "a tool message needs a string tool_call_id",
        path: "messages[7].tool_call_id",
        line: 42,
        column: 5,
        messageIndex: 7,
        format: "OpenAI chat messages",
      },
      {
        message: "a tool call needs a string function name",
        path: "messages[8].tool_calls[0].function.name",
        line: 47,
        column: 5,
        messageIndex: 8,
        format: "OpenAI chat messages",
      },
      {
        message: 'unknown role "customer": expected system, user, assistant or tool',
        path: "messages[11].role",
        line: 72,
        column: 5,
        messageIndex: 11,
        format: "OpenAI chat messages",
      },
    ]);
    expect(error.message).toBe(
      [
        "could not import: 3 problems",
        "- line 42, message 7 (messages[7].tool_call_id): a tool message needs a string tool_call_id [read as OpenAI chat messages]",
        "- line 47, message 8 (messages[8].tool_calls[0].function.name): a tool call needs a string function name [read as OpenAI chat messages]",
        '- line 72, message 11 (messages[11].role): unknown role "customer": expected system, user, assistant or tool [read as OpenAI chat messages]',
      ].join("\n"),
    );
  });

  const cases: [string, unknown, { path: string; message: string }][] = [
    [
      "a message without a role",
      [{ role: "user", content: "a" }, { content: "x" }],
      { path: "[1].role", message: "a message needs a role (system, user, assistant or tool)" },
    ],
    [
      "a message that is not an object",
      [{ role: "user", content: "a" }, "hello"],
      { path: "[1]", message: "each message must be an object with a role and content" },
    ],
    [
      "a user message without content",
      [{ role: "user" }],
      { path: "[0].content", message: "a user message needs content: a string or an array of content parts" },
    ],
    ["numeric content", [{ role: "user", content: 3 }], { path: "[0].content", message: "content must be a string, null or an array of content parts" }],
    ["a text part without text", [{ role: "user", content: [{ type: "text" }] }], { path: "[0].content[0].text", message: "a text part needs a string text" }],
    [
      "a part without a type",
      [{ role: "user", content: [{ text: "x" }] }],
      { path: "[0].content[0]", message: "a content part must be an object with a string type" },
    ],
    [
      "an empty tool_call_id",
      [{ role: "tool", tool_call_id: "", content: "x" }],
      { path: "[0].tool_call_id", message: "a tool message has an empty tool_call_id" },
    ],
    [
      "tool_calls that are not an array",
      [{ role: "assistant", content: null, tool_calls: {} }],
      { path: "[0].tool_calls", message: "tool_calls must be an array of tool calls" },
    ],
    [
      "a tool call without an id",
      [{ role: "assistant", content: null, tool_calls: [{ type: "function", function: { name: "f", arguments: "{}" } }] }],
      { path: "[0].tool_calls[0].id", message: "a tool call needs a string id" },
    ],
    [
      "a tool call with another type",
      [{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "other", function: { name: "f", arguments: "{}" } }] }],
      { path: "[0].tool_calls[0].type", message: 'a tool call needs type "function" (or "custom" with a custom object)' },
    ],
    [
      "a tool call without arguments",
      [{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f" } }] }],
      { path: "[0].tool_calls[0].function.arguments", message: "a tool call needs arguments as a JSON string" },
    ],
    [
      "a tool call without a function",
      [{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function" }] }],
      { path: "[0].tool_calls[0].function", message: "a tool call needs a function object {name, arguments}" },
    ],
    [
      "tool_calls on a user message",
      [{ role: "user", content: "x", tool_calls: [{ id: "c" }] }],
      { path: "[0].tool_calls", message: "only assistant messages can have tool_calls" },
    ],
    ["a non-string name", [{ role: "user", content: "x", name: 5 }], { path: "[0].name", message: "name must be a string" }],
    ["an empty messages array", { messages: [] }, { path: "messages", message: "there are no messages: a conversation needs at least one message" }],
    ["messages that are not an array", { messages: "hi" }, { path: "messages", message: "messages must be an array of messages" }],
    [
      "a tool without a name",
      { messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { parameters: {} } }] },
      { path: "tools[0].function.name", message: "a tool needs a string name" },
    ],
    [
      "tools that are not an array",
      { messages: [{ role: "user", content: "x" }], tools: {} },
      { path: "tools", message: "tools must be an array of tool definitions" },
    ],
  ];
  it.each(cases)("reports %s", (_, value, expected) => {
    const error = importErrorOf(() => parse(value));
    expect(error.issues.map(({ path, message }) => ({ path, message }))).toEqual([expected]);
  });

  it("locates each issue on the line where its message starts", () => {
    const text = ["[", '  {"role": "user", "content": "hi"},', '  {"role": "tool",', '   "content": "x"},', '  {"role": "robot", "content": "y"}', "]"].join(
      "\n",
    );
    const error = importErrorOf(() => parseConversations(text));
    expect(error.issues).toEqual([
      { message: "a tool message needs a string tool_call_id", path: "[1].tool_call_id", line: 3, column: 3, messageIndex: 1, format: "OpenAI chat messages" },
      {
        message: 'unknown role "robot": expected system, user, assistant or tool',
        path: "[2].role",
        line: 5,
        column: 3,
        messageIndex: 2,
        format: "OpenAI chat messages",
      },
    ]);
  });

  it("reports at most 20 issues and says there are more", () => {
    const messages = Array.from({ length: 30 }, () => ({ role: "tool", content: "x" }));
    const error = importErrorOf(() => parseConversations(JSON.stringify(messages, null, 1)));
    expect(error.issues).toHaveLength(20);
    expect(error.truncated).toBe(true);
    expect(error.issues[19]).toMatchObject({ path: "[19].tool_call_id", messageIndex: 19, line: 78 });
    expect(error.message.split("\n")[0]).toBe("could not import: more than 20 problems");
    expect(error.message.split("\n").at(-1)).toBe("- ... and more; fix these first");
  });
});
