import { describe, expect, it } from "vitest";
import { FormatError } from "../errors";
import { readChatMessages, readChatRequest, readChatResponse, writeChatMessages } from "../index";

function roundTrip(messages: unknown[]) {
  const read = readChatMessages(messages);
  return { read, back: readChatMessages(writeChatMessages(read.messages).value) };
}

describe("OpenAI Chat reader and writer", () => {
  it("[F-C3] pairs a legacy function result with its call by one generated id, also with two calls of one name", () => {
    const { messages, warnings } = readChatMessages([
      { role: "user", content: "weather in Paris and Rome?" },
      { role: "assistant", content: null, function_call: { name: "weather", arguments: '{"city":"Paris"}' } },
      { role: "function", name: "weather", content: "16" },
      { role: "assistant", content: null, function_call: { name: "weather", arguments: '{"city":"Rome"}' } },
      { role: "function", name: "weather", content: "21" },
    ]);
    expect(messages[1].tool_calls?.[0].id).toBe("legacy_call_1");
    expect(messages[2]).toMatchObject({ role: "tool", tool_call_id: "legacy_call_1", name: "weather" });
    expect(messages[4].tool_call_id).toBe("legacy_call_3");
    expect(warnings.map((warning) => warning.code)).toEqual(["legacy-function-call", "legacy-function-call", "legacy-function-call", "legacy-function-call"]);
  });

  it("[F-C4] keeps the developer role as a system message and writes it back as developer", () => {
    const { read, back } = roundTrip([{ role: "developer", content: "be brief" }]);
    expect(read.messages[0]).toEqual({ role: "system", content: "be brief", extras: { openai: { role: "developer" } } });
    expect(writeChatMessages(read.messages).value[0].role).toBe("developer");
    expect(back.messages).toEqual(read.messages);
  });

  it("[F-C2] keeps images, audio and files as typed parts in order, the text joined in content", () => {
    const { read, back } = roundTrip([
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA", detail: "low" } },
          { type: "text", text: "and listen" },
          { type: "input_audio", input_audio: { data: "UklG", format: "mp3" } },
          { type: "file", file: { file_id: "file-1", filename: "a.pdf" } },
        ],
      },
    ]);
    const [message] = read.messages;
    expect(message.content).toBe("look\nand listen");
    expect(message.parts?.map((part) => part.type)).toEqual(["text", "image", "text", "audio", "document"]);
    expect(message.parts?.[1]).toEqual({ type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" }, detail: "low" });
    expect(back.messages).toEqual(read.messages);
  });

  it("[F-C2] keeps a refusal and writes it back in the refusal field", () => {
    const { read, back } = roundTrip([{ role: "assistant", content: null, refusal: "I can't." }]);
    expect(read.messages[0]).toEqual({ role: "assistant", content: null, parts: [{ type: "refusal", text: "I can't." }] });
    expect(writeChatMessages(read.messages).value[0]).toEqual({ role: "assistant", content: null, refusal: "I can't." });
    expect(back.messages).toEqual(read.messages);
  });

  it("[F-C5] carries reasoning of every kind through reasoning_details", () => {
    const messages = [
      {
        role: "assistant" as const,
        content: "done",
        parts: [
          { type: "reasoning" as const, text: "thinking", signature: "sig" },
          { type: "reasoning" as const, text: "", redacted: "opaque" },
          { type: "reasoning" as const, text: "", summary: ["one", "two"], encrypted: "enc", id: "rs_1" },
          { type: "text" as const, text: "done" },
        ],
      },
    ];
    const wire = writeChatMessages(messages).value;
    expect(wire[0].content).toBe("done");
    expect(readChatMessages(wire).messages).toEqual(messages);
  });

  it("[F-C5] reads reasoning_content as reasoning and writes it back there", () => {
    const { read, back } = roundTrip([{ role: "assistant", content: "4", reasoning_content: "2+2" }]);
    expect(read.messages[0].parts?.[0]).toEqual({ type: "reasoning", text: "2+2" });
    expect(writeChatMessages(read.messages).value[0].reasoning_content).toBe("2+2");
    expect(back.messages).toEqual(read.messages);
  });

  it("[F-2] holds a cache mark on the last part as the message's, and on earlier parts as theirs", () => {
    const { read, back } = roundTrip([
      {
        role: "user",
        content: [
          { type: "text", text: "a", cache_control: { type: "ephemeral" } },
          { type: "text", text: "b", cache_control: { type: "ephemeral", ttl: "1h" } },
        ],
      },
    ]);
    expect(read.messages[0]).toEqual({
      role: "user",
      content: "a\nb",
      parts: [
        { type: "text", text: "a", cacheControl: { type: "ephemeral" } },
        { type: "text", text: "b" },
      ],
      cache_control: { type: "ephemeral", ttl: "1h" },
    });
    expect(back.messages).toEqual(read.messages);
  });

  it("[F-C6] keeps fields the canonical message has no place for and writes them back", () => {
    const { read } = roundTrip([{ role: "assistant", content: "x", prefix: true }]);
    expect(read.messages[0].extras).toEqual({ openai: { fields: { prefix: true } } });
    expect(writeChatMessages(read.messages).value[0]).toEqual({ role: "assistant", content: "x", prefix: true });
  });

  it("[F-C1] refuses bad input with every problem located and the format named", () => {
    let error: unknown;
    try {
      readChatMessages([{ content: "x" }, { role: "tool", content: "y" }, { role: "user", content: [{ type: "image_url" }] }], { path: ["messages"] });
    } catch (caught) {
      error = caught;
    }
    expect(FormatError.isInstance(error)).toBe(true);
    const formatError = error as FormatError;
    expect(formatError.format).toBe("openai-chat");
    expect(formatError.issues.map((issue) => issue.pathText)).toEqual(["messages[0].role", "messages[1].tool_call_id", "messages[2].content[0].image_url"]);
    expect(formatError.message).toContain("not valid OpenAI Chat Completions: 3 problems");
  });

  it("reads a request's tools and functions and keeps the other fields", () => {
    const read = readChatRequest({
      model: "gpt-4o",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ type: "function", function: { name: "a", parameters: { type: "object" } } }],
      functions: [{ name: "b" }],
    });
    expect(read.rest).toEqual({ model: "gpt-4o" });
    expect(read.tools?.map((tool) => tool.function.name)).toEqual(["a", "b"]);
  });

  it("reads a completion's message, audio answer included", () => {
    const read = readChatResponse({
      choices: [{ message: { role: "assistant", content: null, audio: { id: "audio_1", data: "UklG", transcript: "hello", expires_at: 1 } } }],
    });
    expect(read.messages[0].parts).toEqual([{ type: "audio", source: { type: "base64", mediaType: "audio/wav", data: "UklG" }, transcript: "hello" }]);
    expect(writeChatMessages(read.messages).value[0].audio).toEqual({ id: "audio_1", expires_at: 1, data: "UklG", transcript: "hello" });
  });
});
