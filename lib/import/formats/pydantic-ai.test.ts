import { describe, expect, it } from "vitest";
import { importErrorOf, readFixture } from "@/tests/fixtures/import/load";
import { parseConversations } from "../index";

const history = parseConversations(readFixture("formats/pydantic-ai-message-history.json")).conversations[0];

const request = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ parts, kind: "request", ...extra });
const response = (parts: unknown[], extra: Record<string, unknown> = {}) => ({ parts, kind: "response", ...extra });
const userPrompt = (content: unknown) => ({ content, timestamp: "2025-06-01T10:00:00Z", part_kind: "user-prompt" });
const parse = (messages: unknown[]) => parseConversations(JSON.stringify(messages)).conversations[0];

describe("Pydantic AI message history", () => {
  it("[IM-10] keeps each response's time, model, usage with its cache reads and writes, response id and finish reason", () => {
    expect(history.messages[3].role).toBe("assistant");
    expect(history.facts?.[3]).toMatchObject({
      at: "2026-01-14T09:30:04.771Z",
      model: "claude-sonnet-4-5-20250929",
      responseId: "msg_01XFDUDYJgAACzvnptvVoYEL",
      stopReason: "tool_call",
      usage: { input: 323, cacheRead: 0, cacheWrite5m: 1200, output: 96 },
    });
    expect(history.facts?.[7]?.usage).toMatchObject({ input: 610, cacheRead: 1200, output: 38 });
  });

  it("[IM-10] keeps each request part's time, and the conversation id and runs of the session", () => {
    expect(history.facts?.[2]).toEqual({ at: "2026-01-14T09:30:01.204Z" });
    expect(history.facts?.[8]).toEqual({ at: "2026-01-14T09:31:40.557Z" });
    expect(history.session).toEqual({ agent: "pydantic-ai", sessionId: "0198c3a2-5f1d-7e9a-b3c4-5d6e7f8a9b0c" });
    expect(history.source?.runIds).toHaveLength(2);
  });

  it("[IM-2] keeps the instructions, the system prompt, the image, the thinking with its signature and the calls paired with their results", () => {
    expect(history.messages.map((message) => message.role)).toEqual([
      "system",
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(history.messages[2].parts?.[1]).toMatchObject({ type: "image", source: { type: "base64", mediaType: "image/png" } });
    expect(history.messages[3].parts?.[0]).toMatchObject({ type: "reasoning", signature: expect.stringMatching(/^EqQB/) });
    expect(history.messages[4].tool_call_id).toBe(history.messages[3].tool_calls?.[0].id);
    expect(history.messages[6].tool_call_id).toBe(history.messages[5].tool_calls?.[0].id);
  });

  it("[IM-2] sends a retry-prompt as Pydantic AI does: the failed call's error result, with the validation errors as JSON", () => {
    const retry = history.messages[4];
    expect(retry.extras?.anthropic).toMatchObject({ isError: true });
    expect(retry.content).toMatch(/^1 validation error:\n```json\n\[\n {2}\{\n {4}"type": "int_parsing"/);
    expect(retry.content).toMatch(/Fix the errors and try again\.$/);
  });

  it("[IM-2] keeps a call's arguments text exactly as the model wrote it", () => {
    expect(history.messages[5].tool_calls?.[0].function.arguments).toBe('{"city": "Paris", "days": 2}');
  });

  it("[IM-10] reads the older shape: request_tokens, vendor_id, vendor_details and args_json", () => {
    const older = parse([
      request([userPrompt("Capital of Mexico?")]),
      response([{ tool_name: "lookup", args: { args_json: '{"q": "Mexico"}' }, tool_call_id: "c1", part_kind: "tool-call" }], {
        usage: { requests: 1, request_tokens: 13, response_tokens: 76, total_tokens: 89, details: null },
        model_name: "gpt-4o",
        timestamp: "2025-03-01T12:00:00Z",
        vendor_id: "chatcmpl-CBpEX",
        vendor_details: { finish_reason: "tool_calls" },
      }),
      request([{ tool_name: "lookup", content: "Mexico City", tool_call_id: "c1", part_kind: "tool-return" }]),
    ]);
    expect(older.messages[1].tool_calls?.[0].function.arguments).toBe('{"q": "Mexico"}');
    expect(older.facts?.[1]).toMatchObject({ responseId: "chatcmpl-CBpEX", stopReason: "tool_calls", usage: { input: 13, output: 76 } });
  });

  it("[IM-3] warns where the instructions change, and sends a retry without a tool as user feedback", () => {
    const changed = parse([
      request([userPrompt("Hi")], { instructions: "Be brief." }),
      response([{ content: "not json", part_kind: "text" }]),
      request([{ content: "Invalid JSON", tool_name: null, tool_call_id: "x", part_kind: "retry-prompt" }], { instructions: "Answer in JSON." }),
    ]);
    expect(changed.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "system", "user"]);
    expect(changed.messages[4].content).toBe("Validation feedback:\nInvalid JSON\n\nFix the errors and try again.");
    expect(changed.warnings).toEqual([expect.objectContaining({ code: "part-approximated", path: "[2].instructions" })]);
  });

  it("[IM-2] keeps an OpenAI reasoning part's id and encrypted content", () => {
    const openai = parse([
      request([userPrompt("Think")]),
      response([{ content: "summary", id: "rs_1", signature: "gAAAA-encrypted", provider_name: "openai", part_kind: "thinking" }], {
        provider_name: "openai",
      }),
    ]);
    expect(openai.messages[1].parts?.[0]).toEqual({ type: "reasoning", text: "summary", id: "rs_1", encrypted: "gAAAA-encrypted" });
  });

  it("[IM-11] keeps a provider's compaction as a compaction before the messages after it", () => {
    const compacted = parse([
      request([userPrompt("Long task")]),
      response([
        { content: "Summary of the work so far", part_kind: "compaction" },
        { content: "Continuing.", part_kind: "text" },
      ]),
      request([userPrompt("Next")]),
    ]);
    expect(compacted.compactions).toEqual([{ at: 2, summary: "Summary of the work so far" }]);
    expect(compacted.warnings.map((warning) => [warning.code, warning.messageIndex])).toEqual([["marker", 2]]);
  });

  it("[IM-8] refuses an unknown part kind, naming the message, the part and the format", () => {
    const error = importErrorOf(() => parseConversations(JSON.stringify([request([{ content: "x", part_kind: "telepathy" }])])));
    expect(error.issues[0]).toMatchObject({ path: "[0].parts[0].part_kind", messageIndex: 0, format: "Pydantic AI message history" });
  });

  it("[IM-1] leaves chat messages to the chat reader", () => {
    expect(parseConversations('[{"role": "user", "content": "hi"}]').format).toBe("openai");
  });
});
