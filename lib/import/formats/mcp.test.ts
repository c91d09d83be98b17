import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const text = readFixture("formats/mcp-jsonrpc-session.jsonl");
const lines = text
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { timestamp: string; direction: string; message: Record<string, unknown> });

const call = (id: number | null, name: string) => ({ jsonrpc: "2.0", ...(id === null ? {} : { id }), method: "tools/call", params: { name, arguments: {} } });
const answer = (id: number, textValue: string) => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: textValue }] } });

describe("MCP JSON-RPC logs", () => {
  const result = parseConversations(text);
  const [conversation] = result.conversations;

  it("[IM-1] detects a log as JSONL, as a JSON array and as bare JSON-RPC messages, and leaves other JSON-RPC protocols alone", () => {
    expect(result.format).toBe("mcp");
    expect(parseConversations(JSON.stringify(lines)).format).toBe("mcp");
    expect(parseConversations(JSON.stringify(lines.map((line) => line.message))).format).toBe("mcp");
    const lsp = [{ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: 1, rootUri: null, capabilities: {} } }];
    expect(importErrorOf(() => parseConversations(JSON.stringify(lsp))).issues[0].message).toMatch(/^could not recognise the format/);
  });

  it("[IM-2] makes each tools/call an assistant tool call and its response the result, paired by JSON-RPC id", () => {
    expect(conversation.messages.map((message) => [message.role, message.tool_calls?.map((found) => found.id) ?? message.tool_call_id])).toEqual([
      ["assistant", ["3"]],
      ["tool", "3"],
      ["assistant", ["4", "5"]],
      ["tool", "5"],
      ["tool", "4"],
    ]);
    expect(conversation.messages[1].content).toBe("Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy");
    expect(conversation.messages[3].extras?.anthropic).toEqual({ isError: true });
  });

  it("[IM-2] keeps an image and an embedded resource of a result as media parts", () => {
    expect(conversation.messages[4].parts?.map((part) => part.type)).toEqual(["image", "document"]);
    expect(conversation.messages[4].parts?.[1]).toMatchObject({
      title: "Map legend (file:///maps/new-york.txt)",
      source: { type: "text", text: "Blue: rain. Grey: clouds." },
    });
  });

  it("[IM-10] gives a call the time it was sent, and its result the time it came and how long the call took", () => {
    expect(conversation.facts).toEqual([
      { at: "2025-06-18T14:02:15.501Z" },
      { at: "2025-06-18T14:02:15.934Z", latencyMs: 433 },
      { at: "2025-06-18T14:02:19.260Z" },
      { at: "2025-06-18T14:02:19.733Z", latencyMs: 471 },
      { at: "2025-06-18T14:02:20.418Z", latencyMs: 1158 },
    ]);
  });

  it("[IM-10] takes initialize's client as the agent, keeps its server, protocol and instructions, and tools/list's tools", () => {
    expect(conversation.session).toEqual({ agent: "ExampleClient", agentVersion: "1.0.0" });
    expect(conversation.source).toMatchObject({
      server: { name: "ExampleServer", version: "1.0.0" },
      protocolVersion: "2025-06-18",
      instructions: "Optional instructions for the client",
    });
    expect(conversation.title).toBe("MCP session with Example Server Display Name");
    expect(conversation.tools?.map((tool) => tool.function.name)).toEqual(["get_weather", "get_weather_map"]);
    expect(conversation.tools?.[0].function.parameters).toMatchObject({ required: ["location"] });
  });

  it("[IM-3] counts notifications in a warning and says what a result lost", () => {
    expect(conversation.warnings).toEqual([
      {
        code: "part-dropped",
        message: "a content item's annotations (audience, priority) have no place in a tool result: dropped",
        path: "[11].message.result.content[0].annotations",
      },
      { code: "entry-skipped", message: "skipped 2 messages that hold no tool call or result (notifications/initialized ×1, notifications/message ×1)" },
    ]);
  });

  it("[IM-3] counts a request it has no use for once, with its response", () => {
    const log = [
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///a.txt" } },
      { jsonrpc: "2.0", id: 1, result: { contents: [] } },
      call(2, "x"),
      answer(2, "y"),
    ];
    const [found] = parseConversations(JSON.stringify(log)).conversations;
    expect(found.warnings.map((warning) => warning.message)).toEqual(["skipped 1 message that holds no tool call or result (resources/read ×1)"]);
  });

  it("[IM-3] answers a call with a JSON-RPC error as an error result", () => {
    const log = [call(1, "get_weather"), { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Unknown tool: get_weather" } }];
    const [found] = parseConversations(JSON.stringify(log)).conversations;
    expect(found.messages[1]).toMatchObject({
      role: "tool",
      tool_call_id: "1",
      content: "Unknown tool: get_weather (-32602)",
      extras: { anthropic: { isError: true } },
    });
  });

  it("[IM-3] pairs results a recorder wrote without JSON-RPC ids with the calls in order, and says so", () => {
    const recorded = [
      { timestamp: "2025-06-18T14:00:00Z", direction: "request", message: { method: "tools/call", params: { name: "server_list", arguments: {} } } },
      { timestamp: "2025-06-18T14:00:01Z", direction: "response", message: { content: [{ type: "text", text: "No servers connected." }] } },
    ];
    const [found] = parseConversations(recorded.map((line) => JSON.stringify(line)).join("\n")).conversations;
    expect(found.messages[1]).toMatchObject({ role: "tool", tool_call_id: found.messages[0].tool_calls?.[0].id, content: "No servers connected." });
    expect(found.warnings.map((warning) => warning.code)).toEqual(["call-id-generated", "call-id-generated"]);
  });

  it("[IM-3] places a result that came after a later call with its own call, and says so", () => {
    const log = [call(1, "slow"), answer(9, "unasked"), call(2, "fast"), answer(2, "fast done"), answer(1, "slow done")];
    const [found] = parseConversations(JSON.stringify(log)).conversations;
    expect(found.messages.map((message) => message.tool_call_id ?? message.tool_calls?.[0].id)).toEqual(["1", "1", "2", "2"]);
    expect(found.warnings.map((warning) => warning.code)).toEqual(["part-approximated", "entry-skipped"]);
  });

  it("[IM-2] keeps calls apart when a new connection numbers its requests from 1 again", () => {
    const log = [call(1, "first"), answer(1, "a"), call(1, "second"), answer(1, "b")];
    const [found] = parseConversations(JSON.stringify(log)).conversations;
    expect(found.messages.map((message) => message.tool_call_id ?? message.tool_calls?.[0].id)).toEqual(["1", "1", "1~2", "1~2"]);
  });

  it("[IM-8] a log without a tools/call request is refused, saying why", () => {
    const error = importErrorOf(() => parseConversations(JSON.stringify(lines.slice(0, 5).map((line) => line.message))));
    expect(error.issues[0]).toMatchObject({ message: "the log holds no tools/call request: there is no conversation in it", format: "MCP JSON-RPC log" });
  });
});
