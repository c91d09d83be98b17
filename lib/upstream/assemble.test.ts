import { describe, expect, it } from "vitest";
import { streamPayloads, type FakeRequest } from "@/tests/support/fake-openai";
import { CompletionAssembler, outcomeOfCompletion } from "./assemble";

const request = (stream_options?: object): FakeRequest => ({
  method: "POST",
  path: "/v1/chat/completions",
  headers: {},
  body: { model: "m", stream: true, stream_options, messages: [{ role: "user", content: "hi" }] },
  text: "",
});

describe("CompletionAssembler", () => {
  it("rebuilds content and tool calls whose arguments arrive in pieces", () => {
    const assembler = new CompletionAssembler();
    const reply = {
      content: "Let me look that up.",
      toolCalls: [
        { id: "call_a", name: "search", arguments: '{"query":"flights to Lisbon","limit":3}' },
        { id: "call_b", name: "weather", arguments: '{"city":"Lisbon"}' },
      ],
      chunkSize: 3,
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    for (const data of streamPayloads(reply, request({ include_usage: true }), 7)) assembler.addData(data);
    expect(assembler.done).toBe(true);
    const completion = assembler.completion();
    expect(completion).toMatchObject({ id: "chatcmpl-fake-7", object: "chat.completion", model: "fake-gpt", usage: reply.usage });
    expect(outcomeOfCompletion(completion)).toEqual({
      reply: {
        role: "assistant",
        content: "Let me look that up.",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "search", arguments: '{"query":"flights to Lisbon","limit":3}' } },
          { id: "call_b", type: "function", function: { name: "weather", arguments: '{"city":"Lisbon"}' } },
        ],
      },
      model: "fake-gpt",
      finishReason: "tool_calls",
      usage: reply.usage,
    });
  });

  it("keeps several choices apart and notes an error sent inside the stream", () => {
    const assembler = new CompletionAssembler();
    assembler.addChunk({
      id: "x",
      choices: [
        { index: 1, delta: { content: "B" } },
        { index: 0, delta: { content: "A" } },
      ],
    });
    assembler.addChunk({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: "stop" }] });
    assembler.addData("not json");
    assembler.addData('{"error":{"message":"overloaded","type":"server_error"}}');
    const choices = assembler.completion().choices as { message: { content: string } }[];
    expect(choices.map((choice) => choice.message.content)).toEqual(["Aa", "B"]);
    expect(assembler.streamError).toEqual({ message: "overloaded", type: "server_error" });
  });
});

describe("outcomeOfCompletion", () => {
  it("reads choice 0 as a canonical assistant message, usage and finish reason", () => {
    const body = {
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "", refusal: null }, finish_reason: "length" }],
      usage: { total_tokens: 3 },
    };
    expect(outcomeOfCompletion(body)).toEqual({ reply: { role: "assistant", content: null }, model: "m", finishReason: "length", usage: { total_tokens: 3 } });
  });

  it("has no reply for a body without choices", () => {
    expect(outcomeOfCompletion({ error: { message: "x" } }).reply).toBeNull();
    expect(outcomeOfCompletion("text").reply).toBeNull();
  });
});
