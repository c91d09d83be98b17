import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const history = parseConversations(readFixture("formats/openai-agents-js-history.json"));
const [conversation] = history.conversations;
const parse = (items: unknown[]) => parseConversations(JSON.stringify(items));

const userTurn = { role: "user", content: "Weather in Tokyo?" };
const call = { type: "function_call", callId: "call_1", name: "get_weather", status: "completed", arguments: '{"city":"Tokyo"}' };

describe("OpenAI Agents SDK items (JS)", () => {
  it("[IM-1] reads result.history as the Agents SDK's items, not as a Responses list", () => {
    expect(history.format).toBe("openai-agents");
  });

  it("[IM-2] pairs each function_call_result and computer_call_result with its call by callId", () => {
    expect(conversation.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(conversation.messages[1].tool_calls?.[0]).toMatchObject({
      id: "call_Wx7pQ2r9LmN3",
      function: { name: "get_weather", arguments: '{"city":"Paris"}' },
    });
    expect(conversation.messages[2]).toMatchObject({ role: "tool", tool_call_id: "call_Wx7pQ2r9LmN3", content: "Paris: 18 °C, sunny" });
    expect(conversation.messages[3].tool_calls?.[0]).toMatchObject({
      id: "call_Sc4nR8t1KpV6",
      function: { name: "computer", arguments: '{"type":"screenshot"}' },
    });
    expect(conversation.messages[4].parts?.[0]).toMatchObject({ type: "image", source: { type: "base64", mediaType: "image/png" } });
  });

  it("[IM-2] keeps the reasoning summary with its encrypted content, and the hosted web search whole", () => {
    const [reasoning, search] = conversation.messages[1].parts ?? [];
    expect(reasoning).toMatchObject({ type: "reasoning", id: "rs_68a1f0c3a4c08190b2c3d4e5f6a70001", encrypted: "gAAAAABo_example_encrypted_reasoning" });
    expect(search).toEqual({
      type: "provider",
      provider: "openai",
      data: {
        id: "ws_68a1f0c4b5d08190c3d4e5f6a7b80001",
        type: "web_search_call",
        action: { type: "search", query: "Paris weather today" },
        status: "completed",
      },
    });
  });

  it("[IM-2] reads structured tool output and the protocol's image and file parts", () => {
    const read = parse([
      { role: "user", content: [{ type: "input_file", file: { id: "file-abc" }, filename: "report.pdf" }] },
      call,
      {
        type: "function_call_result",
        name: "get_weather",
        callId: "call_1",
        status: "completed",
        output: { type: "image", image: { data: "iVBORw0KGgo=", mediaType: "image/png" } },
      },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Here is the map." }] },
    ]).conversations[0];
    expect(read.messages[0].parts?.[0]).toEqual({ type: "document", source: { type: "file", fileId: "file-abc" }, title: "report.pdf" });
    expect(read.messages[2].parts?.[0]).toMatchObject({ type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } });
  });

  it("[IM-3] says what it left out: an explicit prompt-cache breakpoint", () => {
    const read = parse([
      { role: "user", content: [{ type: "input_text", text: "Long context", promptCacheBreakpoint: { mode: "explicit" } }] },
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok" }], providerData: {} },
    ]).conversations[0];
    expect(read.warnings).toEqual([expect.objectContaining({ code: "cache-control-dropped", path: "[0].content[0]" })]);
  });

  it("[IM-11] keeps an OpenAI compaction item as a compaction", () => {
    const read = parse([
      userTurn,
      { type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-compacted", created_by: "server", providerData: {} },
      { role: "user", content: "And tomorrow?" },
    ]).conversations[0];
    expect(read.compactions).toEqual([{ at: 1 }]);
    expect(read.warnings.map((warning) => [warning.code, warning.messageIndex, warning.path])).toEqual([["marker", 1, "[1]"]]);
  });

  it("[IM-1] leaves the Python SDK's to_input_list() (plain Responses items) to the Responses reader, with the same pairs", () => {
    const python = parse([
      { content: "Weather in Tokyo?", role: "user" },
      { id: "fc_1", arguments: '{"city":"Tokyo"}', call_id: "call_1", name: "get_weather", type: "function_call", status: "completed" },
      { call_id: "call_1", output: "Sunny, 22 °C", type: "function_call_output" },
      {
        id: "msg_1",
        content: [{ annotations: [], logprobs: [], text: "It is sunny.", type: "output_text" }],
        role: "assistant",
        status: "completed",
        type: "message",
      },
    ]);
    expect(python.format).toBe("openai-responses");
    expect(python.conversations[0].messages[2]).toMatchObject({ role: "tool", tool_call_id: "call_1", content: "Sunny, 22 °C" });
  });

  it("[IM-8] refuses a result without its callId, naming the item, the field and the format", () => {
    const error = importErrorOf(() => parse([userTurn, call, { type: "function_call_result", name: "get_weather", status: "completed", output: "x" }]));
    expect(error.issues[0]).toMatchObject({
      message: "a function_call_result item needs the string callId of its call",
      path: "[2].callId",
      messageIndex: 2,
      format: "OpenAI Agents SDK items (JS)",
    });
  });
});
