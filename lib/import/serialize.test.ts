import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "@/lib/context/messages";
import { readFixtureJson } from "@/tests/fixtures/import/load";
import { parseConversations, serializeConversation } from "./index";

const sample = readFixtureJson<{ traj: Message[] }[]>("tau-bench-airline-sample.json");
const request = readFixtureJson<{ tools: never[] }>("import/openai-request-task-41.json");

// Any UTF-16, lone surrogates included: what users paste is not always well-formed.
const text = fc.string({ unit: "binary" });
const toolCall = fc.record({
  id: fc.string({ minLength: 1 }),
  type: fc.constant("function" as const),
  function: fc.record({ name: fc.string({ minLength: 1 }), arguments: fc.json() }),
});
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constantFrom("system" as const, "user" as const), content: text }),
  fc.record({ role: fc.constant("assistant" as const), content: fc.option(text, { nil: null }) }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.option(text, { nil: null }),
    tool_calls: fc.array(toolCall, { minLength: 1, maxLength: 3 }),
  }),
  fc.record(
    { role: fc.constant("tool" as const), content: text, tool_call_id: fc.string({ minLength: 1 }), name: fc.string() },
    { requiredKeys: ["role", "content", "tool_call_id"] },
  ),
);

describe("serializeConversation", () => {
  it.each(["openai", "jsonl"] as const)("round-trips every sample trajectory through %s", (format) => {
    for (const entry of sample) {
      const [conversation] = parseConversations(serializeConversation(entry.traj, format)).conversations;
      expect(conversation.messages).toEqual(entry.traj);
    }
  });

  it.each(["openai", "jsonl"] as const)("round-trips any valid messages through %s", (format) => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), (messages) => {
        const [conversation] = parseConversations(serializeConversation(messages, format), { format }).conversations;
        expect(conversation.messages).toEqual(messages);
      }),
    );
  });

  it("writes an OpenAI document with tools, and JSONL one message a line", () => {
    const messages: Message[] = [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }];
    const document = serializeConversation(messages, "openai", { tools: request.tools });
    expect(JSON.parse(document)).toEqual({ messages, tools: request.tools });
    expect(parseConversations(document).conversations[0].tools).toEqual(request.tools);
    expect(serializeConversation(messages, "jsonl")).toBe('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n');
  });

  it("keeps only canonical fields, in wire order", () => {
    const loose = { name: "n", content: "x", role: "user", extra: true } as unknown as Message;
    expect(serializeConversation([loose], "jsonl")).toBe('{"role":"user","content":"x","name":"n"}\n');
  });
});
