import { describe, expect, it } from "vitest";
import { FormatError } from "../errors";
import { readResponsesInput, readResponsesOutput, readResponsesRequest, writeResponsesRequest } from "../index";

const sameAfterTrip = (body: Record<string, unknown>) => {
  const read = readResponsesRequest(body);
  const written = writeResponsesRequest(read);
  expect(written.warnings).toEqual([]);
  expect(readResponsesRequest(written.value).messages).toEqual(read.messages);
  return read;
};

describe("OpenAI Responses reader and writer", () => {
  it("[F-R1] reads a string input as one user message and instructions as a first system message", () => {
    const read = readResponsesRequest({ instructions: "be brief", input: "hi", model: "o4-mini" });
    expect(read.messages).toEqual([
      { role: "system", content: "be brief", extras: { openai: { instructions: true } } },
      { role: "user", content: "hi" },
    ]);
    expect(read.rest).toEqual({ model: "o4-mini" });
    expect(writeResponsesRequest(read).value).toEqual({ instructions: "be brief", input: [{ role: "user", content: "hi" }] });
  });

  it("[F-R1] groups a turn's reasoning, text and calls into one assistant message; outputs become tool messages", () => {
    const read = sameAfterTrip({
      input: [
        { role: "user", content: "go" },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: "enc" },
        { type: "message", role: "assistant", id: "msg_1", status: "completed", content: [{ type: "output_text", text: "calling", annotations: [] }] },
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}", id: "fc_1" },
        { type: "function_call", call_id: "c2", name: "g", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "one" },
        {
          type: "function_call_output",
          call_id: "c2",
          output: [
            { type: "input_text", text: "two" },
            { type: "input_image", image_url: "https://x/y.png", detail: "auto" },
          ],
        },
      ],
    });
    expect(read.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool"]);
    expect(read.messages[1].parts?.[0]).toEqual({ type: "reasoning", text: "", summary: ["plan"], encrypted: "enc", id: "rs_1" });
    expect(read.messages[1].tool_calls?.map((call) => call.id)).toEqual(["c1", "c2"]);
    expect(read.messages[3].parts?.map((part) => part.type)).toEqual(["text", "image"]);
  });

  it("[F-R3] reads custom tool calls and computer calls as tool calls and writes them back as themselves", () => {
    const body = {
      input: [
        { type: "custom_tool_call", call_id: "c1", name: "patch", input: "*** Begin Patch" },
        { type: "custom_tool_call_output", call_id: "c1", output: "ok" },
        { type: "computer_call", id: "cu_1", call_id: "c2", action: { type: "click", x: 1, y: 2 }, pending_safety_checks: [], status: "completed" },
        { type: "computer_call_output", call_id: "c2", output: { type: "computer_screenshot", image_url: "data:image/png;base64,AAAA" } },
      ],
    };
    const read = sameAfterTrip(body);
    expect(read.messages[0].tool_calls?.[0].function).toEqual({ name: "patch", arguments: "*** Begin Patch" });
    expect(read.messages[2].tool_calls?.[0].function).toEqual({ name: "computer", arguments: '{"type":"click","x":1,"y":2}' });
    expect(read.messages[3].parts).toEqual([{ type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } }]);
    expect(writeResponsesRequest(read).value.input).toEqual(body.input);
  });

  it("[F-R4] keeps built-in tool items whole in the assistant turn", () => {
    const body = {
      input: [
        { role: "user", content: "search" },
        { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "q" } },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "found", annotations: [{ type: "url_citation", url: "u" }] }] },
      ],
    };
    const read = sameAfterTrip(body);
    expect(read.messages[1].parts?.[0]).toEqual({ type: "provider", provider: "openai", data: body.input[1] });
    expect(read.messages[1].parts?.[1]).toEqual({ type: "text", text: "found", extras: { openai: { annotations: [{ type: "url_citation", url: "u" }] } } });
    expect(writeResponsesRequest(read).value.input).toEqual(body.input);
  });

  it("[F-R5] reads a response object's output", () => {
    const read = readResponsesOutput({
      id: "resp_1",
      output: [{ type: "message", role: "assistant", id: "msg_1", content: [{ type: "output_text", text: "hi", annotations: [] }] }],
    });
    expect(read.messages).toEqual([{ role: "assistant", content: "hi", extras: { openai: { item: { id: "msg_1" } } } }]);
  });

  it("[F-R1] refuses an item without a type or role and a call without its call_id, located", () => {
    try {
      readResponsesInput([{ content: "x" }, { type: "function_call", name: "f", arguments: "{}" }], { path: ["input"] });
      expect.unreachable();
    } catch (error) {
      expect(FormatError.isInstance(error)).toBe(true);
      expect((error as FormatError).issues.map((issue) => issue.pathText)).toEqual(["input[0].type", "input[1].call_id"]);
    }
  });
});
