import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/messages";
import { readRequest } from "@/lib/formats";
import { comparable } from "@/lib/formats/test-support/fixtures";
import { readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations, serializeConversation, SERIALIZE_FORMATS } from "./index";

const sample = readFixtureJson<{ traj: Message[] }[]>("tau-bench-airline-sample.json");
const request = readFixtureJson<{ tools: never[] }>("import/openai-request-task-41.json");

// Any UTF-16, lone surrogates included: what users paste is not always well-formed.
const text = fc.string({ unit: "binary" });
// An assistant without text holds null (the canonical form), never "".
const assistantText = fc.option(
  text.filter((value) => value !== ""),
  { nil: null },
);
const toolCall = fc.record({
  id: fc.string({ minLength: 1 }),
  type: fc.constant("function" as const),
  function: fc.record({ name: fc.string({ minLength: 1 }), arguments: fc.json() }),
});
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constantFrom("system" as const, "user" as const), content: text }),
  fc.record({ role: fc.constant("assistant" as const), content: assistantText }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: assistantText,
    tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
  }),
  fc.record(
    { role: fc.constant("tool" as const), content: text, tool_call_id: fc.string({ minLength: 1 }), name: fc.string() },
    { requiredKeys: ["role", "content", "tool_call_id"] },
  ),
);

const readerFormat = { "openai-responses": "openai-responses", anthropic: "anthropic", gemini: "gemini" } as const;

describe("serializeConversation", () => {
  it.each(["openai", "jsonl"] as const)("round-trips every sample trajectory through %s", (format) => {
    for (const entry of sample) {
      const { text: exported, warnings } = serializeConversation(entry.traj, format);
      expect(warnings).toEqual([]);
      expect(parseConversations(exported).conversations[0].messages).toEqual(entry.traj);
    }
  });

  it.each(["openai-responses", "anthropic", "gemini"] as const)("[F-8] exports every sample trajectory as %s and reads it back the same", (format) => {
    for (const entry of sample) {
      const { text: exported, warnings } = serializeConversation(entry.traj, format, { tools: request.tools });
      expect(warnings).toEqual([]);
      const back = readRequest(readerFormat[format], JSON.parse(exported));
      expect(comparable(back.messages)).toEqual(comparable(entry.traj));
      expect(back.tools).toEqual(request.tools);
    }
  });

  it.each(["openai", "jsonl"] as const)("round-trips any valid messages through %s", (format) => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), (messages) => {
        const [conversation] = parseConversations(serializeConversation(messages, format).text, { format }).conversations;
        expect(conversation.messages).toEqual(messages);
      }),
    );
  });

  it("writes an OpenAI document with tools, and JSONL one message a line", () => {
    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    const document = serializeConversation(messages, "openai", { tools: request.tools }).text;
    expect(JSON.parse(document)).toEqual({ messages, tools: request.tools });
    expect(parseConversations(document).conversations[0].tools).toEqual(request.tools);
    expect(serializeConversation(messages, "jsonl").text).toBe('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n');
  });

  it("writes only wire fields, in wire order", () => {
    const loose = { name: "n", content: "x", role: "user", extra: true } as unknown as Message;
    expect(serializeConversation([loose], "jsonl").text).toBe('{"role":"user","content":"x","name":"n"}\n');
  });

  it("warns about what a target format cannot hold", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: "x",
        parts: [
          { type: "text", text: "x" },
          { type: "audio", source: { type: "base64", mediaType: "audio/wav", data: "UklG" } },
        ],
      },
    ];
    expect(serializeConversation(messages, "anthropic").warnings).toMatchObject([{ code: "part-dropped", messageIndex: 0, path: "messages[0].parts[1]" }]);
    expect(SERIALIZE_FORMATS).toEqual(["openai", "jsonl", "openai-responses", "anthropic", "gemini"]);
  });
});
